import { defaultHashBounds } from "../bounds.js";
import { encodeBase64 } from "../encoding/base64.js";
import { randomBytes, utf8 } from "../encoding/bytes.js";
import { argon2 } from "../primitives/argon2.js";
import { requireInteger, type PasswordHasher } from "./hasher.js";

/** argon2id's cost parameters; each left out takes OWASP's setting. */
export interface Argon2idParams {
  /** KiB; OWASP: 19 MiB. */
  readonly memoryKiB?: number;
  /** Passes; OWASP: 2. */
  readonly time?: number;
  readonly parallelism?: number;
  readonly saltBytes?: number;
  readonly hashBytes?: number;
}

const VERSION = 0x13;

/** argon2id, OWASP's first choice (m=19 MiB, t=2, p=1), written as a PHC string. */
export function argon2idHasher(params: Argon2idParams = {}): PasswordHasher {
  const bounds = defaultHashBounds;
  const parallelism = requireInteger("parallelism", params.parallelism ?? 1, 1, bounds.argon2MaxParallelism);
  const memoryKiB = requireInteger("memoryKiB", params.memoryKiB ?? 19_456, 8 * parallelism, bounds.argon2MaxMemoryKiB);
  const time = requireInteger("time", params.time ?? 2, bounds.argon2MinTime, bounds.argon2MaxTime);
  const saltBytes = requireInteger("saltBytes", params.saltBytes ?? 16, 8, 64);
  const hashBytes = requireInteger("hashBytes", params.hashBytes ?? 32, bounds.minDerivedKeyBytes, bounds.maxDerivedKeyBytes);
  const cost = { type: "argon2id", version: VERSION, memoryKiB, time, parallelism, data: undefined } as const;
  return {
    name: "argon2id",
    async hash(password) {
      const salt = randomBytes(saltBytes);
      const digest = await argon2(utf8(password), salt, cost, hashBytes);
      return `$argon2id$v=19$m=${memoryKiB},t=${time},p=${parallelism}$${encodeBase64(salt, false)}$${encodeBase64(digest, false)}`;
    },
    isCurrent(parsed) {
      return (
        parsed.family === "argon2" &&
        parsed.type === "argon2id" &&
        parsed.version === VERSION &&
        parsed.memoryKiB === memoryKiB &&
        parsed.time === time &&
        parsed.parallelism === parallelism &&
        parsed.data === undefined &&
        parsed.salt.length >= saltBytes &&
        parsed.digest.length === hashBytes
      );
    },
  };
}
