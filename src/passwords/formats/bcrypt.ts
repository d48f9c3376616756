import { err, ok, type Result } from "neverthrow";
import type { HashBounds } from "../bounds.js";
import { constantTimeEqual } from "../constant-time.js";
import { decodeBcrypt64, isCanonicalBcrypt64 } from "../encoding/bcrypt64.js";
import { utf8 } from "../encoding/bytes.js";
import { encodeHex } from "../encoding/hex.js";
import { bcryptDigest } from "../primitives/bcrypt.js";
import { digest } from "../primitives/digest.js";
import { costOutOfRange, malformed, type HashRejection } from "../rejection.js";

/** A parsed bcrypt hash (`$2a$`, `$2b$`, `$2y$`, and Django's bcrypt forms). */
export interface BcryptHash {
  readonly family: "bcrypt";
  readonly variant: "2a" | "2b" | "2y";
  readonly cost: number;
  /** The 22-character salt, as written (canonical bcrypt base64 of 16 bytes). */
  readonly salt: string;
  /** The 31-character checksum (canonical bcrypt base64 of 23 bytes). */
  readonly checksum: string;
  /** Django's `bcrypt_sha256$`: the password is first replaced by hex(SHA-256(password)). */
  readonly prehash: "none" | "django-sha256";
}

const SCHEME = "bcrypt";
// Cost is always two digits; $2x$ (the buggy-8-bit variant) and $2$ are refused on purpose.
const SHAPE = /^\$(2a|2b|2y)\$([0-9]{2})\$([./A-Za-z0-9]{22})([./A-Za-z0-9]{31})$/;

export function parseBcrypt(encoded: string, prehash: BcryptHash["prehash"] = "none"): Result<BcryptHash, HashRejection> {
  const match = SHAPE.exec(encoded);
  if (match === null) return err(malformed(SCHEME, "the string", "does not have the $2b$NN$<53 characters> shape"));
  const [, variant, costText, salt, checksum] = match as unknown as [string, BcryptHash["variant"], string, string, string];
  // 22 characters carry 132 bits for a 128-bit salt, 31 carry 186 for 184: the rest must be 0.
  if (!isCanonicalBcrypt64(salt)) return err(malformed(SCHEME, "salt", "is not canonical bcrypt base64"));
  if (!isCanonicalBcrypt64(checksum)) return err(malformed(SCHEME, "checksum", "is not canonical bcrypt base64"));
  return ok({ family: "bcrypt", variant, cost: Number(costText), salt, checksum, prehash });
}

/** Django's plain BCryptPasswordHasher: `bcrypt$` in front of an ordinary bcrypt hash. */
export function parseDjangoBcrypt(encoded: string): Result<BcryptHash, HashRejection> {
  return parseBcrypt(encoded.slice("bcrypt$".length));
}

export function parseDjangoBcryptSha256(encoded: string): Result<BcryptHash, HashRejection> {
  return parseBcrypt(encoded.slice("bcrypt_sha256$".length), "django-sha256");
}

export function checkBcryptBounds(hash: BcryptHash, bounds: HashBounds): HashRejection | undefined {
  if (hash.cost < bounds.bcryptMinCost || hash.cost > bounds.bcryptMaxCost) {
    return costOutOfRange(SCHEME, "cost", `${bounds.bcryptMinCost}..${bounds.bcryptMaxCost}`);
  }
  return undefined;
}

/** The bytes bcrypt keys on: Django's variant first replaces the password by hex(SHA-256(password)). */
function bcryptKey(hash: BcryptHash, password: Uint8Array): Uint8Array {
  return hash.prehash === "django-sha256" ? utf8(encodeHex(digest("sha256", password))) : password;
}

export async function verifyBcrypt(hash: BcryptHash, password: Uint8Array): Promise<boolean> {
  const salt = decodeBcrypt64(hash.salt);
  const expected = decodeBcrypt64(hash.checksum);
  if (salt === undefined || expected === undefined) return false;
  return constantTimeEqual(await bcryptDigest(bcryptKey(hash, password), salt, hash.cost), expected);
}
