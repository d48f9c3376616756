import { limiter, type Limiter } from "../../shared/limiter.js";
import { nativeCores } from "./native.js";

/**
 * How many native hashes (node:crypto scrypt and PBKDF2, the argon2 binding) run at once; the
 * rest wait their turn. Native hashing runs on libuv's thread pool (4 threads by default), which
 * Node shares with file-system and DNS work. Left alone, eight logins would take the whole pool
 * (stalling that I/O for a hash's length), run more CPU-bound threads than there are cores (so
 * the event loop's own thread waits for a core), and hold 128 MiB each at scrypt's OWASP
 * setting. One per core, and never the whole pool, keeps the throughput (the cores are busy
 * either way) without those costs.
 */

interface Host {
  readonly navigator?: { readonly hardwareConcurrency?: unknown };
  readonly process?: { readonly env?: Record<string, string | undefined> };
}

const DEFAULT_POOL_SIZE = 4;
/** When the runtime does not say how many cores it has. */
const DEFAULT_CORES = 2;

function positiveInteger(value: unknown): number | undefined {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && number > 0 ? number : undefined;
}

/** One per core, at most the pool's threads less one, at least one. */
export function nativeSlotCount(cores: number | undefined, host: Host = globalThis as unknown as Host): number {
  const known = positiveInteger(cores) ?? positiveInteger(host.navigator?.hardwareConcurrency) ?? DEFAULT_CORES;
  const pool = positiveInteger(host.process?.env?.UV_THREADPOOL_SIZE) ?? DEFAULT_POOL_SIZE;
  return Math.max(1, Math.min(known, pool - 1));
}

let slots: Promise<Limiter> | undefined;

/** Runs `task` when a slot is free; a task that fails frees its slot too. */
export async function inNativeSlot<T>(task: () => Promise<T>): Promise<T> {
  slots ??= nativeCores().then((cores) => limiter(nativeSlotCount(cores)));
  return (await slots).run(task);
}
