/**
 * Longest stretch of pure-JS work between two yields to the event loop. Pure-JS key stretching
 * (bcrypt, the crypt family, and noble's argon2/scrypt/PBKDF2 when no native code exists) runs on
 * the caller's thread in slices of this length, yielding through a macrotask between slices, so
 * a login never stalls other requests for more than a few milliseconds. We chose slicing over a
 * worker thread because a worker needs a separately loadable file (or `node:worker_threads`),
 * which a runtime-agnostic, bundled library cannot count on; the heavy default paths are native
 * and already run off the main thread.
 */
export const SLICE_MS = 4;

interface Host {
  readonly scheduler?: { readonly yield?: () => Promise<void> };
  readonly setImmediate?: (callback: () => void) => unknown;
  readonly setTimeout: (callback: () => void, ms: number) => unknown;
}

const host = globalThis as unknown as Host;

/**
 * One trip round the event loop, so timers and I/O waiting behind us run. `setImmediate` (Node,
 * Bun) does it without the 1 ms floor `setTimeout(0)` has, which cost a fifth of every 4 ms
 * slice; `scheduler.yield` is the browsers' equivalent.
 */
export function yieldToEventLoop(): Promise<void> {
  if (typeof host.scheduler?.yield === "function") return host.scheduler.yield();
  return new Promise((resolve) => {
    if (typeof host.setImmediate === "function") host.setImmediate(resolve);
    else host.setTimeout(resolve, 0);
  });
}

/** Runs `step(i)` for i in 0..iterations-1, yielding every few milliseconds. */
export async function slicedLoop(iterations: number, step: (i: number) => void): Promise<void> {
  let sliceStart = Date.now();
  for (let i = 0; i < iterations; i++) {
    step(i);
    if (Date.now() - sliceStart >= SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = Date.now();
    }
  }
}
