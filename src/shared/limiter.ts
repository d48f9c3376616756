/** Runs tasks with at most `limit` of them in progress; the others wait their turn in call order. */
export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function limiter(limit: number): Limiter {
  let running = 0;
  const queue: (() => void)[] = [];

  /** A finished task hands its slot straight to the next waiting one, so no newcomer can slip in between. */
  function release(): void {
    const next = queue.shift();
    if (next === undefined) running -= 1;
    else next();
  }

  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < limit) running += 1;
      else await new Promise<void>((resolve) => queue.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
