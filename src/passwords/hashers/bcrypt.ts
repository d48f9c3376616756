import { defaultHashBounds } from "../bounds.js";
import { encodeBcrypt64 } from "../encoding/bcrypt64.js";
import { randomBytes } from "../encoding/bytes.js";
import { computeBcrypt } from "../formats/bcrypt.js";
import { requireInteger, type PasswordHasher } from "./hasher.js";

/** bcrypt `$2b$` with OWASP's cost 10 (bcryptjs). Only the first 72 UTF-8 bytes count. */
export function bcryptHasher(params: { readonly cost?: number } = {}): PasswordHasher {
  const cost = requireInteger("cost", params.cost ?? 10, defaultHashBounds.bcryptMinCost, defaultHashBounds.bcryptMaxCost);
  return {
    name: "bcrypt",
    hash(password) {
      // 16 bytes give 22 characters whose spare bits are zero: the canonical salt.
      return computeBcrypt(password, "2b", cost, encodeBcrypt64(randomBytes(16)));
    },
    isCurrent(parsed) {
      return parsed.family === "bcrypt" && parsed.variant === "2b" && parsed.prehash === "none" && parsed.cost === cost;
    },
  };
}
