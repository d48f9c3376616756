import { nativeCrypto } from "./native.js";
import { inNativeSlot } from "./native-slots.js";
import { scryptJs } from "./scrypt-js.js";
import { oneAtATime } from "./yielding.js";

export interface ScryptParams {
  readonly n: number;
  readonly r: number;
  readonly p: number;
}

/**
 * Room for node:crypto's scrypt, which refuses to run past it: OpenSSL allocates 128*r*(N+2)
 * bytes for V and 128*r*p for the lanes. The caller has bounded N, r and p.
 */
function memoryFor({ n, r, p }: ScryptParams): number {
  return 128 * r * (n + p + 2) + 1024 * 1024;
}

/**
 * scrypt: node:crypto's thread-pool version (in a native slot) when there is one, our sliced pure
 * JS otherwise, one hash at a time so that two never hold their memory at once.
 */
export async function scrypt(password: Uint8Array, salt: Uint8Array, params: ScryptParams, keyBytes: number): Promise<Uint8Array> {
  const native = await nativeCrypto();
  if (native !== undefined) {
    const maxmem = memoryFor(params);
    return inNativeSlot(
      () =>
        new Promise((resolve, reject) => {
          native.scrypt(password, salt, keyBytes, { N: params.n, r: params.r, p: params.p, maxmem }, (error, key) =>
            error === null ? resolve(new Uint8Array(key)) : reject(error),
          );
        }),
    );
  }
  return oneAtATime(() => scryptJs(password, salt, params, keyBytes));
}
