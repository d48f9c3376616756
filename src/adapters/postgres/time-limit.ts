/** What the store was waiting for when it gave up. */
export type AwaitedFromDatabase = "connection" | "answer";

/** The store stopped waiting on the database: no connection from the pool, or no answer, in time. */
export class DatabaseTimeoutError extends Error {
  override readonly name = "DatabaseTimeoutError";

  constructor(
    readonly awaited: AwaitedFromDatabase,
    readonly limitMs: number,
  ) {
    super(awaited === "connection" ? `no connection from the pool within ${limitMs} ms` : `no answer from the database within ${limitMs} ms`);
  }
}

/**
 * Settles as `work` does, unless `limitMs` passes first: then rejects with a `DatabaseTimeoutError`,
 * and a value `work` delivers later goes to `onLate` (a late failure is dropped). 0 means no limit.
 */
export function withinLimit<T>(work: Promise<T>, limitMs: number, awaited: AwaitedFromDatabase, onLate: (value: T) => void = () => undefined): Promise<T> {
  if (limitMs === 0) return work;
  return new Promise<T>((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(new DatabaseTimeoutError(awaited, limitMs));
    }, limitMs);
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
