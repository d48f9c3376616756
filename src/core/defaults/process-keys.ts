import type { Keys } from "../../ports/keys.js";
import { webCryptoRandom } from "../../shared/web-crypto-random.js";

let keys: Keys | undefined;

/**
 * Random keys made once per process: safe (nothing guessable), but codes and TOTP secrets written
 * with them cannot be checked after a restart. The configuration check refuses them with a durable
 * store unless the host opts in (`config.allowThrowawayKeys`); hosts give `ports.keys`, e.g. from
 * `keysFromEnvironment`.
 */
export function processKeys(): Keys {
  keys ??= {
    keyId: "process",
    codeHmacKey: webCryptoRandom.fill(new Uint8Array(32)),
    encryptionKey: webCryptoRandom.fill(new Uint8Array(32)),
  };
  return keys;
}
