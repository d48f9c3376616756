import { asyncLoop } from "@noble/hashes/utils.js";

/**
 * Longest stretch of pure-JS work between two yields to the event loop. Pure-JS key stretching
 * (the crypt family, and noble's argon2/scrypt/PBKDF2 when no native code exists) runs on the
 * caller's thread in slices of this length, yielding through a macrotask between slices, so a
 * login never stalls other requests for more than a few milliseconds. We chose slicing over a
 * worker thread because a worker needs a separately loadable file (or `node:worker_threads`),
 * which a runtime-agnostic, bundled library cannot count on; the heavy default paths are native
 * and already run off the main thread.
 */
export const SLICE_MS = 4;

/** Runs `step(i)` for i in 0..iterations-1, yielding every few milliseconds. */
export function slicedLoop(iterations: number, step: (i: number) => void): Promise<void> {
  return asyncLoop(iterations, SLICE_MS, step);
}
