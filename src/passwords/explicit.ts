import { err, errAsync, ok, type ResultAsync, type Result } from "neverthrow";
import type { ErrorBody } from "../shared/error-body.js";
import { defaultHashBounds, MIN_DIGEST_BYTES, resolveHashBounds, type HashBounds } from "./bounds.js";
import { withinBounds } from "./dispatch.js";
import { decodeBase64 } from "./encoding/base64.js";
import { utf8 } from "./encoding/bytes.js";
import { decodeHex } from "./encoding/hex.js";
import { rejectionBody } from "./errors.js";
import { hmacHash } from "./formats/hmac.js";
import { saltedDigest, type TemplatePart } from "./formats/salted-digest.js";
import type { ParsedPasswordHash } from "./parsed.js";
import { scryptN } from "./formats/scrypt.js";
import { malformed, type HashRejection } from "./rejection.js";
import { verifyParsedPassword, type PasswordVerification, type VerifyPasswordOptions } from "./verify.js";

/** The digests a hash without a prefix may use. */
export type ExplicitDigest = "md5" | "sha1" | "sha224" | "sha256" | "sha384" | "sha512";
/** Hex is accepted in one case, lower or upper; base64 is standard, padding optional. */
export type ExplicitEncoding = "hex" | "base64";
/** Bytes as given, or a string taken as its UTF-8 bytes. */
export type ExplicitBytes = string | Uint8Array;

/**
 * A stored hash with no self-describing prefix, described by the caller (bare hex digests,
 * exports that keep the salt in a separate field such as Auth0's custom_password_hash or Logto's
 * legacy digests).
 */
export type ExplicitPasswordHash =
  | {
      readonly kind: "digest";
      readonly digest: ExplicitDigest;
      readonly hash: string;
      readonly encoding?: ExplicitEncoding;
      readonly salt?: ExplicitBytes;
      /** Where the salt goes relative to the password; default prefix. */
      readonly saltPosition?: "prefix" | "suffix";
    }
  | { readonly kind: "hmac"; readonly digest: ExplicitDigest; readonly hash: string; readonly encoding?: ExplicitEncoding; readonly key: ExplicitBytes }
  | {
      readonly kind: "scrypt";
      readonly hash: string;
      readonly encoding?: ExplicitEncoding;
      readonly salt: ExplicitBytes;
      /** N itself (a power of two). */
      readonly n: number;
      readonly r?: number;
      readonly p?: number;
    };

function bytesOf(value: ExplicitBytes): Uint8Array {
  return typeof value === "string" ? utf8(value) : value;
}

function decodeStored(hash: string, encoding: ExplicitEncoding): Uint8Array | undefined {
  return encoding === "hex" ? decodeHex(hash, true) : decodeBase64(hash, "optional");
}

function explicitSyntax(format: ExplicitPasswordHash): Result<ParsedPasswordHash, HashRejection> {
  const stored = decodeStored(format.hash, format.encoding ?? "hex");
  switch (format.kind) {
    case "digest": {
      const template: readonly TemplatePart[] =
        format.salt === undefined ? ["password"] : format.saltPosition === "suffix" ? ["password", "salt"] : ["salt", "password"];
      return saltedDigest("explicit", format.digest, template, format.salt === undefined ? new Uint8Array(0) : bytesOf(format.salt), stored);
    }
    case "hmac":
      return hmacHash(format.digest, bytesOf(format.key), stored);
    case "scrypt": {
      if (stored === undefined || stored.length < MIN_DIGEST_BYTES) return err(malformed("scrypt", "hash", "is not canonical or too short"));
      const n = Number.isSafeInteger(format.n) && format.n >= 1024 ? scryptN(format.n) : err(malformed("scrypt", "N", "is not a power of two >= 1024"));
      if (n.isErr()) return err(n.error);
      return ok({ family: "scrypt", layout: "explicit", n: n.value, r: format.r ?? 8, p: format.p ?? 1, salt: bytesOf(format.salt), digest: stored });
    }
  }
}

/** Like `parsePasswordHash`, for a hash whose format the caller states. */
export function parseExplicitPasswordHash(format: ExplicitPasswordHash, bounds: Partial<HashBounds> = defaultHashBounds): Result<ParsedPasswordHash, HashRejection> {
  const resolved = resolveHashBounds(bounds);
  return explicitSyntax(format).andThen((parsed) => withinBounds(parsed, resolved));
}

/** Like `verifyPassword`, for a hash whose format the caller states. Never throws or rejects. */
export function verifyPasswordWithFormat(
  format: ExplicitPasswordHash,
  password: string | Uint8Array,
  options: VerifyPasswordOptions = {},
): ResultAsync<PasswordVerification, ErrorBody> {
  const bounds = typeof options === "object" && options !== null ? options.bounds : undefined;
  let parsed: Result<ParsedPasswordHash, HashRejection>;
  try {
    parsed = parseExplicitPasswordHash(format, bounds);
  } catch {
    parsed = err(malformed("explicit", "format", "is not a hash description"));
  }
  if (parsed.isErr()) return errAsync(rejectionBody(parsed.error));
  return verifyParsedPassword(parsed.value, password, options);
}
