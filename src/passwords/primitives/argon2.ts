import { argon2dAsync, argon2iAsync, argon2idAsync } from "@noble/hashes/argon2.js";
import { nativeArgon2 } from "./native.js";
import { inNativeSlot } from "./native-slots.js";
import { oneAtATime, SLICE_MS } from "./yielding.js";

export type Argon2Type = "argon2d" | "argon2i" | "argon2id";

export interface Argon2Params {
  readonly type: Argon2Type;
  /** 0x10 or 0x13. */
  readonly version: number;
  readonly memoryKiB: number;
  readonly time: number;
  readonly parallelism: number;
  /** PHC `data=`: Argon2's associated data. */
  readonly data: Uint8Array | undefined;
}

/** @node-rs/argon2's Algorithm enum values. */
const NATIVE_ALGORITHM: Readonly<Record<Argon2Type, number>> = { argon2d: 0, argon2i: 1, argon2id: 2 };
const NOBLE = { argon2d: argon2dAsync, argon2i: argon2iAsync, argon2id: argon2idAsync } as const;

/**
 * Argon2: the optional native binding when installed (it computes on libuv's pool, in a native
 * slot), else noble's pure JS in slices. The binding takes no associated data, so `data=` hashes
 * use noble.
 */
export async function argon2(password: Uint8Array, salt: Uint8Array, params: Argon2Params, keyBytes: number): Promise<Uint8Array> {
  const native = params.data === undefined ? await nativeArgon2() : undefined;
  if (native !== undefined) {
    const key = await inNativeSlot(() =>
      native.hashRaw(password, {
        memoryCost: params.memoryKiB,
        timeCost: params.time,
        parallelism: params.parallelism,
        outputLen: keyBytes,
        salt,
        algorithm: NATIVE_ALGORITHM[params.type],
        version: params.version === 0x10 ? 0 : 1,
      }),
    );
    return new Uint8Array(key);
  }
  return oneAtATime(() =>
    NOBLE[params.type](password, salt, {
      t: params.time,
      m: params.memoryKiB,
      p: params.parallelism,
      version: params.version,
      dkLen: keyBytes,
      asyncTick: SLICE_MS,
      ...(params.data === undefined ? {} : { personalization: params.data }),
    }),
  );
}
