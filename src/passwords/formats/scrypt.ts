import { err, ok, type Result } from "neverthrow";
import { MIN_DIGEST_BYTES, type HashBounds } from "../bounds.js";
import { constantTimeEqual } from "../constant-time.js";
import { decodeBase64 } from "../encoding/base64.js";
import { latin1 } from "../encoding/bytes.js";
import { HASH64_CHARS, decodeHash64, hash64Value } from "../encoding/hash64.js";
import { numberParam, parseParamList } from "../phc-params.js";
import { scrypt } from "../primitives/scrypt.js";
import { checkDerivedKeyLength, costOutOfRange, malformed, type HashRejection } from "../rejection.js";

/** A parsed scrypt hash (`$scrypt$` and libsodium's `$7$`). */
export interface ScryptHash {
  readonly family: "scrypt";
  /** `passlib`: `$scrypt$ln=..`; `sodium`: `$7$` (libsodium / libxcrypt); `explicit`: described by the caller. */
  readonly layout: "passlib" | "sodium" | "explicit";
  readonly n: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Uint8Array;
  readonly digest: Uint8Array;
}

const SCHEME = "scrypt";
const PASSLIB_SHAPE = /^\$scrypt\$([^$]*)\$([^$]*)\$([^$]*)$/;
/** `ln` below this is log2(N); from it on, a power of two is N itself (Kratos writes N there). */
const LITERAL_N_FROM = 1024;

/** `ln`: log2(N) as passlib writes it, or N itself (a power of two >= 1024) as Kratos does. */
export function scryptN(ln: number): Result<number, HashRejection> {
  if (ln >= LITERAL_N_FROM) {
    // ln < 2^53 here, so the bit test below is exact.
    return Number.isInteger(Math.log2(ln)) ? ok(ln) : err(malformed(SCHEME, "ln", "is neither log2(N) nor a power of two"));
  }
  if (ln < 1) return err(costOutOfRange(SCHEME, "ln", "at least 1"));
  return ok(2 ** ln);
}

/** passlib writes salt and hash unpadded, Kratos padded: both are canonical base64. */
function decodeField(text: string): Uint8Array | undefined {
  return decodeBase64(text, "optional");
}

export interface ScryptCost {
  readonly n: number;
  readonly r: number;
  readonly p: number;
}

/** Parses `ln=..,r=..,p=..` (any order, all three required). */
export function parseScryptParams(scheme: string, text: string): Result<ScryptCost, HashRejection> {
  const params = parseParamList(scheme, text, ["ln", "r", "p"]);
  if (params.isErr()) return err(params.error);
  const ln = numberParam(scheme, params.value, "ln");
  const r = numberParam(scheme, params.value, "r");
  const p = numberParam(scheme, params.value, "p");
  if (ln.isErr()) return err(ln.error);
  if (r.isErr()) return err(r.error);
  if (p.isErr()) return err(p.error);
  const n = scryptN(ln.value);
  if (n.isErr()) return err(n.error);
  return ok({ n: n.value, r: r.value, p: p.value });
}

export function parseScrypt(encoded: string): Result<ScryptHash, HashRejection> {
  const match = PASSLIB_SHAPE.exec(encoded);
  if (match === null) return err(malformed(SCHEME, "the string", "does not have the $scrypt$ln=..,r=..,p=..$salt$hash shape"));
  const [, paramText, saltText, digestText] = match as unknown as [string, string, string, string];
  const cost = parseScryptParams(SCHEME, paramText);
  if (cost.isErr()) return err(cost.error);
  const salt = decodeField(saltText);
  if (salt === undefined) return err(malformed(SCHEME, "salt", "is not canonical base64"));
  const digest = decodeField(digestText);
  if (digest === undefined) return err(malformed(SCHEME, "hash", "is not canonical base64"));
  if (digest.length < MIN_DIGEST_BYTES) return err(malformed(SCHEME, "hash", `is shorter than ${MIN_DIGEST_BYTES} bytes`));
  return ok({ family: "scrypt", layout: "passlib", ...cost.value, salt, digest });
}

/** 30-bit little-endian number in five crypt characters ($7$'s r and p). */
function decodeUint30(text: string): number {
  let value = 0;
  for (let i = 0; i < text.length; i++) value += hash64Value(text.charAt(i)) * 2 ** (6 * i);
  return value;
}

const SODIUM_SHAPE = /^\$7\$([./0-9A-Za-z])([./0-9A-Za-z]{5})([./0-9A-Za-z]{5})([^$]*)\$([^$]*)$/;

/** `$7$`: N as a log2 character, r and p in five characters each, the salt used as written. */
export function parseSodiumScrypt(encoded: string): Result<ScryptHash, HashRejection> {
  const match = SODIUM_SHAPE.exec(encoded);
  if (match === null) return err(malformed(SCHEME, "the string", "does not have the $7$ shape"));
  const [, nChar, rText, pText, saltText, digestText] = match as unknown as [string, string, string, string, string, string];
  const log2n = hash64Value(nChar);
  if (log2n < 1) return err(costOutOfRange(SCHEME, "N", "at least 2"));
  if (!HASH64_CHARS.test(saltText)) return err(malformed(SCHEME, "salt", "has characters outside ./0-9A-Za-z"));
  const digest = decodeHash64(digestText);
  if (digest === undefined || digest.length !== 32) return err(malformed(SCHEME, "hash", "is not 32 bytes of canonical crypt base64"));
  return ok({
    family: "scrypt",
    layout: "sodium",
    n: 2 ** log2n,
    r: decodeUint30(rText),
    p: decodeUint30(pText),
    salt: latin1(saltText),
    digest,
  });
}

export function checkScryptCost(scheme: string, cost: ScryptCost, digestBytes: number, bounds: HashBounds): HashRejection | undefined {
  if (cost.r < 1 || cost.p < 1) return costOutOfRange(scheme, "r and p", "at least 1");
  // RFC 7914 section 2: N < 2^(128*r/8). Native scrypt refuses a larger N (and, in Node 20, such a
  // refusal leaves an OpenSSL error behind that can abort the process at a later crypto call).
  if (cost.n >= 2 ** (16 * cost.r)) return costOutOfRange(scheme, "N and r", "N below 2^(16*r)");
  if (128 * cost.n * cost.r > bounds.scryptMaxMemoryBytes) {
    return costOutOfRange(scheme, "N and r", `128*N*r at most ${bounds.scryptMaxMemoryBytes} bytes`);
  }
  if (cost.n * cost.r * cost.p > bounds.scryptMaxWork) return costOutOfRange(scheme, "N, r and p", `N*r*p at most ${bounds.scryptMaxWork}`);
  return checkDerivedKeyLength(scheme, digestBytes, bounds);
}

export function checkScryptBounds(hash: ScryptHash, bounds: HashBounds): HashRejection | undefined {
  return checkScryptCost(SCHEME, hash, hash.digest.length, bounds);
}

export async function verifyScrypt(hash: ScryptHash, password: Uint8Array): Promise<boolean> {
  const computed = await scrypt(password, hash.salt, hash, hash.digest.length);
  return constantTimeEqual(computed, hash.digest);
}
