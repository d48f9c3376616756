import { err, ok, type Result } from "neverthrow";
import type { HashBounds } from "./bounds.js";
import { checkCostBudget, IMPORT_CONTEXT } from "./budget.js";
import { checkArgon2Bounds, parseArgon2, verifyArgon2 } from "./formats/argon2.js";
import { checkBcryptBounds, parseBcrypt, parseDjangoBcrypt, parseDjangoBcryptSha256, verifyBcrypt } from "./formats/bcrypt.js";
import { checkFirebaseScryptBounds, parseFirebaseScrypt, parseSuperTokensFirebaseScrypt, verifyFirebaseScrypt, withProjectSignerKey } from "./formats/firebase-scrypt.js";
import { parseHmac, verifyHmac } from "./formats/hmac.js";
import { parseMd5Crypt, verifyMd5Crypt } from "./formats/md5-crypt.js";
import { checkPbkdf2Bounds, parseDjangoPbkdf2, parsePbkdf2, verifyPbkdf2 } from "./formats/pbkdf2.js";
import { checkPhpassBounds, parsePhpass, verifyPhpass } from "./formats/phpass.js";
import { parseDjangoDigest, parseKratosDigest, parseLdap, parseMd5Salted, verifySaltedDigest } from "./formats/salted-digest.js";
import { checkScryptBounds, parseScrypt, parseSodiumScrypt, verifyScrypt } from "./formats/scrypt.js";
import { checkShaCryptBounds, parseShaCrypt, verifyShaCrypt } from "./formats/sha-crypt.js";
import type { ParsedPasswordHash, PasswordHashFamily } from "./parsed.js";
import { unknownFormat, type HashRejection } from "./rejection.js";

type Parser = (encoded: string) => Result<ParsedPasswordHash, HashRejection>;

/**
 * Prefix -> parser, most specific first. The prefix only picks the parser; the parser then has
 * to understand the whole string or refuse it.
 */
const PARSERS: readonly (readonly [RegExp, Parser])[] = [
  [/^\$2[aby]\$/, parseBcrypt],
  [/^bcrypt_sha256\$\$2[aby]\$/, parseDjangoBcryptSha256],
  [/^bcrypt\$\$2[aby]\$/, parseDjangoBcrypt],
  [/^\$argon2(?:id|i|d)\$/, parseArgon2],
  [/^\$scrypt\$/, parseScrypt],
  [/^\$7\$/, parseSodiumScrypt],
  [/^\$firescrypt\$/, parseFirebaseScrypt],
  [/^\$f_scrypt\$/, parseSuperTokensFirebaseScrypt],
  [/^\$pbkdf2(?:-sha(?:1|224|256|384|512))?\$/, parsePbkdf2],
  [/^pbkdf2_sha(?:1|256)\$/, parseDjangoPbkdf2],
  [/^\$(?:1|apr1|md5-crypt)\$/, parseMd5Crypt],
  [/^\$(?:5|6|sha256-crypt|sha512-crypt)\$/, parseShaCrypt],
  [/^\$[PHS]\$/, parsePhpass],
  [/^\{crypt\}/i, parseLdapCrypt],
  [/^\{[A-Za-z0-9]+\}/, parseLdap],
  [/^\$md5salted-/, parseMd5Salted],
  [/^\$(?:md5|sha1|sha256|sha512)\$/, parseKratosDigest],
  [/^\$hmac-/, parseHmac],
  [/^(?:md5|sha1)\$/, parseDjangoDigest],
];

/** What crypt(3) writes, and so what LDAP's `{CRYPT}` may hold. */
const CRYPT_PARSERS: readonly (readonly [RegExp, Parser])[] = [
  [/^\$2[aby]\$/, parseBcrypt],
  [/^\$7\$/, parseSodiumScrypt],
  [/^\$(?:1|apr1)\$/, parseMd5Crypt],
  [/^\$(?:5|6)\$/, parseShaCrypt],
];

function firstParser(parsers: readonly (readonly [RegExp, Parser])[], encoded: string): Result<ParsedPasswordHash, HashRejection> {
  for (const [prefix, parser] of parsers) if (prefix.test(encoded)) return parser(encoded);
  return err(unknownFormat());
}

/** OpenLDAP's `{CRYPT}` followed by a crypt(3) string. */
function parseLdapCrypt(encoded: string): Result<ParsedPasswordHash, HashRejection> {
  return firstParser(CRYPT_PARSERS, encoded.slice("{CRYPT}".length));
}

/** Syntax only: no bounds, no hashing. */
export function parseSyntax(encoded: string): Result<ParsedPasswordHash, HashRejection> {
  return firstParser(PARSERS, encoded);
}

const FAMILIES: ReadonlySet<unknown> = new Set<PasswordHashFamily>([
  "bcrypt",
  "argon2",
  "scrypt",
  "firebase-scrypt",
  "pbkdf2",
  "md5-crypt",
  "sha-crypt",
  "phpass",
  "salted-digest",
  "hmac",
]);

/** A guard for values handed in from JavaScript: an object of one of our families. */
export function isParsedPasswordHash(value: unknown): value is ParsedPasswordHash {
  return typeof value === "object" && value !== null && FAMILIES.has((value as { readonly family?: unknown }).family);
}

/** The bounds on each parameter; families with a fixed, small cost (MD5-crypt, plain digests, HMAC) have none. */
function checkParameters(hash: ParsedPasswordHash, bounds: HashBounds): HashRejection | undefined {
  switch (hash.family) {
    case "bcrypt":
      return checkBcryptBounds(hash, bounds);
    case "argon2":
      return checkArgon2Bounds(hash, bounds);
    case "scrypt":
      return checkScryptBounds(hash, bounds);
    case "firebase-scrypt":
      return checkFirebaseScryptBounds(hash, bounds);
    case "pbkdf2":
      return checkPbkdf2Bounds(hash, bounds);
    case "sha-crypt":
      return checkShaCryptBounds(hash, bounds);
    case "phpass":
      return checkPhpassBounds(hash, bounds);
    case "md5-crypt":
    case "salted-digest":
    case "hmac":
      return undefined;
  }
}

/**
 * The bounds on each parameter, then the budget on the whole, as at import: on a runtime with
 * native code, for a nominal password. Verification checks the budget again on its own runtime.
 */
export function checkBounds(hash: ParsedPasswordHash, bounds: HashBounds): HashRejection | undefined {
  return checkParameters(hash, bounds) ?? checkCostBudget(hash, bounds.maxEstimatedCostMs, IMPORT_CONTEXT);
}

/** `hash` ready to be verified: a Firebase hash that leaves the signer key out gets the project's, or is refused without it. */
export function withFirebaseProjectKey(hash: ParsedPasswordHash, signerKey: Uint8Array | undefined): Result<ParsedPasswordHash, HashRejection> {
  return hash.family === "firebase-scrypt" ? withProjectSignerKey(hash, signerKey) : ok(hash);
}

export function withinBounds(hash: ParsedPasswordHash, bounds: HashBounds): Result<ParsedPasswordHash, HashRejection> {
  const rejection = checkBounds(hash, bounds);
  return rejection === undefined ? ok(hash) : err(rejection);
}

/** Computes and compares; callers check bounds and password length first. */
export function computeMatch(hash: ParsedPasswordHash, password: Uint8Array): Promise<boolean> {
  switch (hash.family) {
    case "bcrypt":
      return verifyBcrypt(hash, password);
    case "argon2":
      return verifyArgon2(hash, password);
    case "scrypt":
      return verifyScrypt(hash, password);
    case "firebase-scrypt":
      return verifyFirebaseScrypt(hash, password);
    case "pbkdf2":
      return verifyPbkdf2(hash, password);
    case "md5-crypt":
      return verifyMd5Crypt(hash, password);
    case "sha-crypt":
      return verifyShaCrypt(hash, password);
    case "phpass":
      return verifyPhpass(hash, password);
    case "salted-digest":
      return verifySaltedDigest(hash, password);
    case "hmac":
      return verifyHmac(hash, password);
  }
}
