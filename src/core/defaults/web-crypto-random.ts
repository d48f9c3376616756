import type { RandomSource } from "../../ports/random-source.js";

const MAX_CHUNK = 65_536; // getRandomValues refuses more per call

/** The runtime's cryptographic random source (Web Crypto). */
export const webCryptoRandom: RandomSource = {
  fill(bytes) {
    for (let offset = 0; offset < bytes.length; offset += MAX_CHUNK) {
      crypto.getRandomValues(bytes.subarray(offset, offset + MAX_CHUNK));
    }
    return bytes;
  },
};
