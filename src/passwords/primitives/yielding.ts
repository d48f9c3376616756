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

/** A sliced loop waiting for its next turn: runs until `deadline`, says whether it finished. */
type Turn = (deadline: number) => boolean;

const ready: Turn[] = [];
let pumping = false;

/**
 * Gives the next waiting loop one slice, then yields before the next one. Every loop yielding
 * on its own would not do: all the callbacks a phase of the event loop finds queued run back to
 * back, so eight loops made one 32 ms stall out of eight 4 ms slices. Here the loops take turns,
 * one slice per trip round the event loop.
 */
function pump(): void {
  if (pumping || ready.length === 0) return;
  pumping = true;
  void yieldToEventLoop().then(() => {
    pumping = false;
    const turn = ready.shift();
    if (turn !== undefined && !turn(Date.now() + SLICE_MS)) ready.push(turn);
    pump();
  });
}

/** Runs `step(i)` for i in 0..iterations-1 in turns of a few milliseconds; rejects if a step throws. */
export function slicedLoop(iterations: number, step: (i: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let i = 0;
    ready.push((deadline) => {
      try {
        while (i < iterations) {
          step(i++);
          if (Date.now() >= deadline) break;
        }
      } catch (error) {
        reject(error);
        return true;
      }
      if (i < iterations) return false;
      resolve();
      return true;
    });
    pump();
  });
}

let lane: Promise<unknown> = Promise.resolve();

/**
 * For pure-JS code that slices itself (noble's argon2, scrypt and PBKDF2, which yield through
 * timers): one at a time, so that their slices cannot pile up in one phase of the event loop.
 * The thread is shared either way; only the order changes.
 */
export function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = lane.then(task);
  lane = run.catch(() => undefined);
  return run;
}
