import type { Keys } from "../../ports/keys.js";
import { webCryptoRandom } from "../../shared/web-crypto-random.js";

let keys: Keys | undefined;

/**
 * Random keys made once per process: safe (nothing guessable), but codes and TOTP secrets written
 * with them cannot be checked after a restart. Production hosts configure `ports.keys`.
 */
export function processKeys(): Keys {
  keys ??= {
    keyId: "process",
    codeHmacKey: webCryptoRandom.fill(new Uint8Array(32)),
    encryptionKey: webCryptoRandom.fill(new Uint8Array(32)),
  };
  return keys;
}
