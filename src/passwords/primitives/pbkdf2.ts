import { pbkdf2Async } from "@noble/hashes/pbkdf2.js";
import { nobleHash, type DigestName } from "./digest.js";
import { nativePbkdf2 } from "./native.js";
import { inNativeSlot } from "./native-slots.js";
import { oneAtATime, SLICE_MS } from "./yielding.js";

export type Pbkdf2Prf = Extract<DigestName, "sha1" | "sha224" | "sha256" | "sha384" | "sha512" | "sha3-224" | "sha3-384">;

/** PBKDF2-HMAC: node:crypto's thread-pool version (in a native slot) when there is one, sliced pure JS otherwise. */
export async function pbkdf2(prf: Pbkdf2Prf, password: Uint8Array, salt: Uint8Array, iterations: number, keyBytes: number): Promise<Uint8Array> {
  const native = await nativePbkdf2(prf);
  if (native !== undefined) {
    return inNativeSlot(
      () =>
        new Promise((resolve, reject) => {
          native.pbkdf2(password, salt, iterations, keyBytes, prf, (error, key) => (error === null ? resolve(new Uint8Array(key)) : reject(error)));
        }),
    );
  }
  return oneAtATime(() => pbkdf2Async(nobleHash(prf), password, salt, { c: iterations, dkLen: keyBytes, asyncTick: SLICE_MS }));
}
