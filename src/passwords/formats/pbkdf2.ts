import { err, ok, type Result } from "neverthrow";
import { MIN_DIGEST_BYTES, type HashBounds } from "../bounds.js";
import { constantTimeEqual } from "../constant-time.js";
import { decodeAdaptedOrStandardBase64, decodeBase64 } from "../encoding/base64.js";
import { latin1 } from "../encoding/bytes.js";
import { parseDecimal } from "../numbers.js";
import { numberParam, parseParamList } from "../phc-params.js";
import { pbkdf2, type Pbkdf2Prf } from "../primitives/pbkdf2.js";
import { checkDerivedKeyLength, costOutOfRange, malformed, type HashRejection } from "../rejection.js";

/** A parsed PBKDF2 hash (passlib, PHC and Django forms). */
export interface Pbkdf2Hash {
  readonly family: "pbkdf2";
  /** Where the string came from: passlib `$pbkdf2-sha256$rounds$`, PHC `i=..,l=..`, Django. */
  readonly layout: "passlib" | "phc" | "django";
  readonly prf: Pbkdf2Prf;
  readonly iterations: number;
  readonly salt: Uint8Array;
  readonly digest: Uint8Array;
}

const SCHEME = "pbkdf2";

const PASSLIB_PRF: Readonly<Record<string, Pbkdf2Prf>> = {
  "": "sha1",
  "-sha1": "sha1",
  "-sha224": "sha224",
  "-sha256": "sha256",
  "-sha384": "sha384",
  "-sha512": "sha512",
};

/** Kratos' PHC pbkdf2 maps sha224 and sha384 to SHA-3 (its getPseudorandomFunctionForPbkdf2). */
const PHC_PRF: Readonly<Record<string, Pbkdf2Prf>> = {
  "-sha1": "sha1",
  "-sha224": "sha3-224",
  "-sha256": "sha256",
  "-sha384": "sha3-384",
  "-sha512": "sha512",
};

const DJANGO_PRF: Readonly<Record<string, Pbkdf2Prf>> = { pbkdf2_sha256: "sha256", pbkdf2_sha1: "sha1" };

const PASSLIB_SHAPE = /^\$pbkdf2(-sha(?:1|224|256|384|512))?\$([^$]*)\$([^$]*)\$([^$]*)$/;
const DJANGO_SHAPE = /^(pbkdf2_sha256|pbkdf2_sha1)\$([^$]*)\$([^$]*)\$([^$]*)$/;

function iterationsFrom(text: string): Result<number, HashRejection> {
  const parsed = parseDecimal(text);
  if (parsed.kind === "malformed") return err(malformed(SCHEME, "rounds", "is not a decimal number without leading zeros"));
  if (parsed.kind === "huge") return err(costOutOfRange(SCHEME, "rounds", "far too large"));
  return ok(parsed.value);
}

function withDigest(layout: Pbkdf2Hash["layout"], prf: Pbkdf2Prf, iterations: number, salt: Uint8Array | undefined, digest: Uint8Array | undefined): Result<Pbkdf2Hash, HashRejection> {
  if (salt === undefined) return err(malformed(SCHEME, "salt", "is not canonical base64"));
  if (digest === undefined) return err(malformed(SCHEME, "hash", "is not canonical base64"));
  if (digest.length < MIN_DIGEST_BYTES) return err(malformed(SCHEME, "hash", `is shorter than ${MIN_DIGEST_BYTES} bytes`));
  return ok({ family: "pbkdf2", layout, prf, iterations, salt, digest });
}

/** `$pbkdf2$..`, `$pbkdf2-sha256$rounds$salt$hash`, and the PHC `$pbkdf2-sha256$i=..,l=..$salt$hash`. */
export function parsePbkdf2(encoded: string): Result<Pbkdf2Hash, HashRejection> {
  const match = PASSLIB_SHAPE.exec(encoded);
  if (match === null) return err(malformed(SCHEME, "the string", "does not have the $pbkdf2-<digest>$rounds$salt$hash shape"));
  const [, suffix = "", costText, saltText, digestText] = match as unknown as [string, string | undefined, string, string, string];
  if (costText.includes("=")) return parsePhc(suffix, costText, saltText, digestText);
  const prf = PASSLIB_PRF[suffix];
  if (prf === undefined) return err(malformed(SCHEME, "digest", "is not supported"));
  const iterations = iterationsFrom(costText);
  if (iterations.isErr()) return err(iterations.error);
  return withDigest("passlib", prf, iterations.value, decodeAdaptedOrStandardBase64(saltText), decodeAdaptedOrStandardBase64(digestText));
}

function parsePhc(suffix: string, paramText: string, saltText: string, digestText: string): Result<Pbkdf2Hash, HashRejection> {
  const prf = PHC_PRF[suffix];
  if (prf === undefined) return err(malformed(SCHEME, "digest", "is not supported in the i=,l= layout"));
  const params = parseParamList(SCHEME, paramText, ["i", "l"]);
  if (params.isErr()) return err(params.error);
  const iterations = numberParam(SCHEME, params.value, "i");
  const length = numberParam(SCHEME, params.value, "l");
  if (iterations.isErr()) return err(iterations.error);
  if (length.isErr()) return err(length.error);
  const parsed = withDigest("phc", prf, iterations.value, decodeBase64(saltText, "forbidden"), decodeBase64(digestText, "forbidden"));
  if (parsed.isOk() && parsed.value.digest.length !== length.value) return err(malformed(SCHEME, "l", "does not match the hash length"));
  return parsed;
}

/** Django: `pbkdf2_sha256$iterations$salt$base64(hash)`, the salt used as written. */
export function parseDjangoPbkdf2(encoded: string): Result<Pbkdf2Hash, HashRejection> {
  const match = DJANGO_SHAPE.exec(encoded);
  if (match === null) return err(malformed(SCHEME, "the string", "does not have Django's pbkdf2_sha256$iterations$salt$hash shape"));
  const [, name, costText, saltText, digestText] = match as unknown as [string, string, string, string, string];
  const iterations = iterationsFrom(costText);
  if (iterations.isErr()) return err(iterations.error);
  const salt = /^[\x21-\x7e]+$/.test(saltText) ? latin1(saltText) : undefined;
  if (salt === undefined) return err(malformed(SCHEME, "salt", "is empty or not printable ASCII"));
  return withDigest("django", DJANGO_PRF[name] ?? "sha256", iterations.value, salt, decodeBase64(digestText, "required"));
}

export function checkPbkdf2Bounds(hash: Pbkdf2Hash, bounds: HashBounds): HashRejection | undefined {
  if (hash.iterations < 1 || hash.iterations > bounds.pbkdf2MaxIterations) return costOutOfRange(SCHEME, "rounds", `1..${bounds.pbkdf2MaxIterations}`);
  return checkDerivedKeyLength(SCHEME, hash.digest.length, bounds);
}

export async function verifyPbkdf2(hash: Pbkdf2Hash, password: Uint8Array): Promise<boolean> {
  const computed = await pbkdf2(hash.prf, password, hash.salt, hash.iterations, hash.digest.length);
  return constantTimeEqual(computed, hash.digest);
}
