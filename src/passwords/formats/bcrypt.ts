import bcryptjs from "bcryptjs";
import { err, ok, type Result } from "neverthrow";
import type { HashBounds } from "../bounds.js";
import { constantTimeEqual } from "../constant-time.js";
import { decodeBcrypt64 } from "../encoding/bcrypt64.js";
import { utf8 } from "../encoding/bytes.js";
import { encodeHex } from "../encoding/hex.js";
import { digest } from "../primitives/digest.js";
import { costOutOfRange, malformed, type HashRejection } from "../rejection.js";

export interface BcryptHash {
  readonly family: "bcrypt";
  readonly variant: "2a" | "2b" | "2y";
  readonly cost: number;
  /** The 22-character salt, kept as written (bcryptjs takes it that way). */
  readonly salt: string;
  /** The 31-character checksum. */
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
  if (decodeBcrypt64(salt) === undefined) return err(malformed(SCHEME, "salt", "is not canonical bcrypt base64"));
  if (decodeBcrypt64(checksum) === undefined) return err(malformed(SCHEME, "checksum", "is not canonical bcrypt base64"));
  return ok({ family: "bcrypt", variant, cost: Number(costText), salt, checksum, prehash });
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

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** bcryptjs only takes strings: password bytes that are not UTF-8 cannot be verified with it. */
export function checkBcryptInput(hash: BcryptHash, password: Uint8Array): HashRejection | undefined {
  if (hash.prehash === "django-sha256") return undefined;
  try {
    strictUtf8.decode(password);
    return undefined;
  } catch {
    return malformed(SCHEME, "password", "is not UTF-8, which this bcrypt implementation needs");
  }
}

/**
 * bcryptjs takes the password as a string and uses the first 72 bytes of its UTF-8 form, as
 * every bcrypt does; a password that is not UTF-8 cannot be handed to it.
 */
function bcryptInput(hash: BcryptHash, password: Uint8Array): string {
  if (hash.prehash === "django-sha256") return encodeHex(digest("sha256", password));
  return strictUtf8.decode(password);
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * bcryptjs yields to the event loop only every 100 ms, and concurrent hashes' slices run back
 * to back (eight at cost 10 stalled the loop for about half a second in the bench). Running
 * one at a time bounds a stall to one slice; throughput is unchanged, as it is one thread anyway.
 */
export function computeBcrypt(password: string, variant: BcryptHash["variant"], cost: number, salt: string): Promise<string> {
  const run = queue.then(() => bcryptjs.hash(password, `$${variant}$${String(cost).padStart(2, "0")}$${salt}`));
  queue = run.catch(() => undefined);
  return run;
}

export async function verifyBcrypt(hash: BcryptHash, password: Uint8Array): Promise<boolean> {
  const computed = await computeBcrypt(bcryptInput(hash, password), hash.variant, hash.cost, hash.salt);
  return constantTimeEqual(utf8(computed.slice(-31)), utf8(hash.checksum));
}
