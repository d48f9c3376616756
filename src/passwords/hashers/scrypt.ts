import { defaultHashBounds } from "../bounds.js";
import { IMPORT_CONTEXT } from "../budget.js";
import { estimateCostMs } from "../cost.js";
import { encodeBase64 } from "../encoding/base64.js";
import { randomBytes, utf8 } from "../encoding/bytes.js";
import { checkScryptCost } from "../formats/scrypt.js";
import { scrypt } from "../primitives/scrypt.js";
import { requireInteger, type PasswordHasher } from "./hasher.js";

/** scrypt's cost parameters; each left out takes OWASP's setting. */
export interface ScryptParams {
  /** log2(N); OWASP: 17. */
  readonly log2N?: number;
  readonly r?: number;
  readonly p?: number;
  readonly saltBytes?: number;
  readonly hashBytes?: number;
}

/** scrypt with OWASP's N=2^17, r=8, p=1, written in passlib's `$scrypt$ln=..` layout. */
export function scryptHasher(params: ScryptParams = {}): PasswordHasher {
  const bounds = defaultHashBounds;
  const log2N = requireInteger("log2N", params.log2N ?? 17, 1, 30);
  const r = requireInteger("r", params.r ?? 8, 1, 1024);
  const p = requireInteger("p", params.p ?? 1, 1, 1024);
  const n = 2 ** log2N;
  const saltBytes = requireInteger("saltBytes", params.saltBytes ?? 16, 8, 64);
  const hashBytes = requireInteger("hashBytes", params.hashBytes ?? 32, bounds.minDerivedKeyBytes, bounds.maxDerivedKeyBytes);
  // The same check as every imported scrypt hash gets (RFC 7914's N < 2^(16*r) included).
  const refusal = checkScryptCost("scrypt", { n, r, p }, hashBytes, bounds);
  if (refusal !== undefined) throw new RangeError(`scrypt parameters exceed the default bounds: ${refusal.message}`);
  // Its hashes must pass verification's budget too, or every login with them would be refused.
  const own = { family: "scrypt", layout: "passlib", n, r, p, salt: new Uint8Array(saltBytes), digest: new Uint8Array(hashBytes) } as const;
  if (estimateCostMs(own, IMPORT_CONTEXT) > bounds.maxEstimatedCostMs) throw new RangeError("scrypt parameters exceed the default cost budget");
  return {
    name: "scrypt",
    async hash(password) {
      const salt = randomBytes(saltBytes);
      const digest = await scrypt(utf8(password), salt, { n, r, p }, hashBytes);
      return `$scrypt$ln=${log2N},r=${r},p=${p}$${encodeBase64(salt, false)}$${encodeBase64(digest, false)}`;
    },
    isCurrent(parsed) {
      return parsed.family === "scrypt" && parsed.layout === "passlib" && parsed.n === n && parsed.r === r && parsed.p === p && parsed.salt.length >= saltBytes && parsed.digest.length === hashBytes;
    },
  };
}
