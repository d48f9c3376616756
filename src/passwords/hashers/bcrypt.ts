import { defaultHashBounds } from "../bounds.js";
import { encodeBcrypt64 } from "../encoding/bcrypt64.js";
import { randomBytes, utf8 } from "../encoding/bytes.js";
import { BCRYPT_SALT_BYTES, bcryptDigest } from "../primitives/bcrypt.js";
import { requireInteger, type PasswordHasher } from "./hasher.js";

/** bcrypt `$2b$` with OWASP's cost 10. Only the first 72 UTF-8 bytes of a password count. */
export function bcryptHasher(params: { readonly cost?: number } = {}): PasswordHasher {
  const cost = requireInteger("cost", params.cost ?? 10, defaultHashBounds.bcryptMinCost, defaultHashBounds.bcryptMaxCost);
  const setting = `$2b$${String(cost).padStart(2, "0")}$`;
  return {
    name: "bcrypt",
    async hash(password) {
      const salt = randomBytes(BCRYPT_SALT_BYTES);
      // 16 bytes give 22 characters and 23 bytes 31, their spare bits zero: the canonical forms.
      return `${setting}${encodeBcrypt64(salt)}${encodeBcrypt64(await bcryptDigest(utf8(password), salt, cost))}`;
    },
    isCurrent(parsed) {
      return parsed.family === "bcrypt" && parsed.variant === "2b" && parsed.prehash === "none" && parsed.cost === cost;
    },
  };
}
