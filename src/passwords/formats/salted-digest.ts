import { err, ok, type Result } from "neverthrow";
import { MIN_DIGEST_BYTES } from "../bounds.js";
import { constantTimeEqual } from "../constant-time.js";
import { decodeBase64 } from "../encoding/base64.js";
import { concatBytes, latin1 } from "../encoding/bytes.js";
import { decodeHex } from "../encoding/hex.js";
import { digest, digestLength, type DigestName } from "../primitives/digest.js";
import { malformed, unknownFormat, type HashRejection } from "../rejection.js";

/** One piece of the digest's input: the password, the salt, or literal bytes. */
export type TemplatePart = "password" | "salt" | Uint8Array;

/**
 * A single unstretched digest of the password and a salt laid out by a template. Covers LDAP
 * `{SSHA}` (password then salt), passwap's `$md5salted-prefix$`/`-suffix$`, Kratos'
 * `$md5$`/`$sha1$`.. with an optional `pf=` pattern, and Django's `md5$salt$hex`. These are fast
 * by design, so there is no cost to bound; they exist to import legacy users, who are rehashed.
 */
export interface SaltedDigestHash {
  readonly family: "salted-digest";
  /** Which writer's spelling it was, for messages and reports. */
  readonly scheme: "ldap" | "md5salted" | "kratos" | "django" | "explicit";
  readonly digestName: DigestName;
  readonly template: readonly TemplatePart[];
  readonly salt: Uint8Array;
  readonly digest: Uint8Array;
}

export function saltedDigest(
  scheme: SaltedDigestHash["scheme"],
  digestName: DigestName,
  template: readonly TemplatePart[],
  salt: Uint8Array,
  stored: Uint8Array | undefined,
): Result<SaltedDigestHash, HashRejection> {
  if (stored === undefined) return err(malformed(scheme, "hash", "is not canonical (base64 or hex)"));
  if (stored.length !== digestLength(digestName) || stored.length < MIN_DIGEST_BYTES) {
    return err(malformed(scheme, "hash", `is not a ${digestName} digest`));
  }
  return ok({ family: "salted-digest", scheme, digestName, template, salt, digest: stored });
}

const LDAP_SCHEMES: Readonly<Record<string, readonly [DigestName, boolean]>> = {
  MD5: ["md5", false],
  SMD5: ["md5", true],
  SHA: ["sha1", false],
  SSHA: ["sha1", true],
  SSHA256: ["sha256", true],
  SSHA512: ["sha512", true],
};

/** RFC 2307 style `{SCHEME}base64`; scheme names are case-insensitive there. */
export function parseLdap(encoded: string): Result<SaltedDigestHash, HashRejection> {
  const match = /^\{([A-Za-z0-9]+)\}(.*)$/s.exec(encoded);
  const entry = match === null ? undefined : LDAP_SCHEMES[(match[1] ?? "").toUpperCase()];
  if (match === null || entry === undefined) return err(unknownFormat());
  const [name, salted] = entry;
  const bytes = decodeBase64(match[2] ?? "", "required");
  if (bytes === undefined) return err(malformed("ldap", "value", "is not canonical base64"));
  const size = digestLength(name);
  // Unsalted: exactly the digest, or bytes after it would be ignored. Salted: at least one salt byte.
  if (!salted && bytes.length !== size) return err(malformed("ldap", "value", `is not exactly one ${name} digest`));
  if (salted && bytes.length <= size) return err(malformed("ldap", "value", "is too short for a digest and a salt"));
  const salt = bytes.subarray(size);
  return saltedDigest("ldap", name, salted ? ["password", "salt"] : ["password"], salt, bytes.subarray(0, size));
}

/**
 * passwap: `$md5salted-prefix$<salt>$base64(md5(salt || password))`, or `-suffix`. passwap
 * hashes the salt field as written (its text, even when that text looks like base64).
 */
export function parseMd5Salted(encoded: string): Result<SaltedDigestHash, HashRejection> {
  const match = /^\$md5salted-(prefix|suffix)\$([^$]*)\$([^$]*)$/.exec(encoded);
  if (match === null) return err(malformed("md5salted", "the string", "does not have the $md5salted-prefix$salt$hash shape"));
  const saltText = match[2] ?? "";
  if (!/^[\x21-\x7e]+$/.test(saltText)) return err(malformed("md5salted", "salt", "is empty or not printable ASCII"));
  const salt = latin1(saltText);
  const template: readonly TemplatePart[] = match[1] === "prefix" ? ["salt", "password"] : ["password", "salt"];
  return saltedDigest("md5salted", "md5", template, salt, decodeBase64(match[3] ?? "", "required"));
}

const MAX_PATTERN_BYTES = 256;

/** Kratos' `pf=` pattern: `{SALT}` and `{PASSWORD}` placeholders among literal text. */
function parsePattern(pattern: Uint8Array): TemplatePart[] | undefined {
  const text = new TextDecoder("latin1").decode(pattern);
  const parts: TemplatePart[] = [];
  for (const piece of text.split(/(\{SALT\}|\{PASSWORD\})/)) {
    if (piece === "{SALT}") parts.push("salt");
    else if (piece === "{PASSWORD}") parts.push("password");
    else if (piece !== "") parts.push(latin1(piece));
  }
  return parts.includes("password") ? parts : undefined;
}

const KRATOS_DIGESTS: Readonly<Record<string, DigestName>> = { md5: "md5", sha1: "sha1", sha256: "sha256", sha512: "sha512" };

/** Kratos: `$md5$base64(hash)` or `$sha256$pf=base64(pattern)$base64(salt)$base64(hash)`. */
export function parseKratosDigest(encoded: string): Result<SaltedDigestHash, HashRejection> {
  const match = /^\$(md5|sha1|sha256|sha512)\$(?:pf=([^$]*)\$([^$]*)\$)?([^$]*)$/.exec(encoded);
  const name = match === null ? undefined : KRATOS_DIGESTS[match[1] ?? ""];
  if (match === null || name === undefined) return err(malformed("kratos", "the string", "does not have the $sha256$[pf=..$salt$]hash shape"));
  const [, , patternText, saltText, hashText] = match as unknown as [string, string, string | undefined, string | undefined, string];
  if (patternText === undefined) return saltedDigest("kratos", name, ["password"], new Uint8Array(0), decodeBase64(hashText, "required"));
  const pattern = decodeBase64(patternText, "required");
  const template = pattern === undefined || pattern.length > MAX_PATTERN_BYTES ? undefined : parsePattern(pattern);
  if (template === undefined) return err(malformed("kratos", "pf", "is not a base64 pattern with {PASSWORD}"));
  const salt = decodeBase64(saltText ?? "", "required");
  if (salt === undefined) return err(malformed("kratos", "salt", "is not canonical base64"));
  return saltedDigest("kratos", name, template, salt, decodeBase64(hashText, "required"));
}

/** Django's old `md5$salt$hex(md5(salt || password))` and `sha1$salt$hex` (empty salt allowed). */
export function parseDjangoDigest(encoded: string): Result<SaltedDigestHash, HashRejection> {
  const match = /^(md5|sha1)\$([^$]*)\$([^$]*)$/.exec(encoded);
  if (match === null) return err(malformed("django", "the string", "does not have the md5$salt$hex shape"));
  const [, name, saltText, hexText] = match as unknown as [string, "md5" | "sha1", string, string];
  if (!/^[\x21-\x7e]*$/.test(saltText)) return err(malformed("django", "salt", "is not printable ASCII"));
  return saltedDigest("django", name, ["salt", "password"], latin1(saltText), decodeHex(hexText));
}

export function saltedDigestInput(hash: SaltedDigestHash, password: Uint8Array): Uint8Array {
  return concatBytes(...hash.template.map((part) => (part === "password" ? password : part === "salt" ? hash.salt : part)));
}

export function verifySaltedDigest(hash: SaltedDigestHash, password: Uint8Array): Promise<boolean> {
  return Promise.resolve(constantTimeEqual(digest(hash.digestName, saltedDigestInput(hash, password)), hash.digest));
}
