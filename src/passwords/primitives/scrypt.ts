import { scryptAsync } from "@noble/hashes/scrypt.js";
import { nativeCrypto } from "./native.js";
import { inNativeSlot } from "./native-slots.js";
import { oneAtATime, SLICE_MS } from "./yielding.js";

export interface ScryptParams {
  readonly n: number;
  readonly r: number;
  readonly p: number;
}

/** Room for scrypt's working memory; the caller has already bounded 128 * N * r. */
function memoryFor({ n, r, p }: ScryptParams): number {
  return 128 * n * r + 128 * r * p + 1024 * 1024;
}

/** scrypt: node:crypto's thread-pool version (in a native slot) when there is one, sliced pure JS otherwise. */
export async function scrypt(password: Uint8Array, salt: Uint8Array, params: ScryptParams, keyBytes: number): Promise<Uint8Array> {
  const native = await nativeCrypto();
  const maxmem = memoryFor(params);
  if (native !== undefined) {
    return inNativeSlot(
      () =>
        new Promise((resolve, reject) => {
          native.scrypt(password, salt, keyBytes, { N: params.n, r: params.r, p: params.p, maxmem }, (error, key) =>
            error === null ? resolve(new Uint8Array(key)) : reject(error),
          );
        }),
    );
  }
  return oneAtATime(() => scryptAsync(password, salt, { N: params.n, r: params.r, p: params.p, dkLen: keyBytes, maxmem, asyncTick: SLICE_MS }));
}
