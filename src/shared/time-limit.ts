/** The longest delay `setTimeout` honours (some 24 days); a longer one fires at once. */
export const LONGEST_TIMER_MS = 2_147_483_647;

/**
 * Settles as `work` does, unless `ms` pass first: then rejects with `expired()`, and a value `work`
 * delivers later goes to `onLate` (a late failure is dropped). The timer ends with the work.
 */
export function settleWithin<T>(work: Promise<T>, ms: number, expired: () => Error, onLate: (value: T) => void = () => undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(expired());
    }, ms);
    work.then(
      (value) => {
        if (timedOut) return onLate(value);
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (timedOut) return;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
