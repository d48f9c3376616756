import { defaultHashBounds } from "../bounds.js";
import { encodeAdaptedBase64 } from "../encoding/base64.js";
import { randomBytes, utf8 } from "../encoding/bytes.js";
import { pbkdf2 } from "../primitives/pbkdf2.js";
import { requireInteger, type PasswordHasher } from "./hasher.js";

/** PBKDF2-HMAC-SHA256 with OWASP's 600,000 iterations, in passlib's `$pbkdf2-sha256$` layout. */
export function pbkdf2Sha256Hasher(params: { readonly iterations?: number; readonly saltBytes?: number } = {}): PasswordHasher {
  const iterations = requireInteger("iterations", params.iterations ?? 600_000, 1, defaultHashBounds.pbkdf2MaxIterations);
  const saltBytes = requireInteger("saltBytes", params.saltBytes ?? 16, 8, 64);
  const hashBytes = 32;
  return {
    name: "pbkdf2-sha256",
    async hash(password) {
      const salt = randomBytes(saltBytes);
      const digest = await pbkdf2("sha256", utf8(password), salt, iterations, hashBytes);
      return `$pbkdf2-sha256$${iterations}$${encodeAdaptedBase64(salt)}$${encodeAdaptedBase64(digest)}`;
    },
    isCurrent(parsed) {
      return parsed.family === "pbkdf2" && parsed.prf === "sha256" && parsed.iterations === iterations && parsed.salt.length >= saltBytes && parsed.digest.length === hashBytes;
    },
  };
}
