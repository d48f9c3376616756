import { err, ok, type Result } from "neverthrow";
import { MIN_DIGEST_BYTES } from "../bounds.js";
import { constantTimeEqual } from "../constant-time.js";
import { decodeBase64 } from "../encoding/base64.js";
import { decodeHex } from "../encoding/hex.js";
import { digestLength, hmacDigest, type DigestName } from "../primitives/digest.js";
import { malformed, type HashRejection } from "../rejection.js";

/** Kratos' `$hmac-<digest>$base64(hex(HMAC(key, password)))$base64(key)`. */
export interface HmacHash {
  readonly family: "hmac";
  readonly digestName: DigestName;
  readonly key: Uint8Array;
  readonly digest: Uint8Array;
}

const SCHEME = "hmac";
const DIGESTS: Readonly<Record<string, DigestName>> = {
  md5: "md5",
  sha1: "sha1",
  sha224: "sha224",
  sha256: "sha256",
  sha384: "sha384",
  sha512: "sha512",
};

export function hmacHash(digestName: DigestName, key: Uint8Array, stored: Uint8Array | undefined): Result<HmacHash, HashRejection> {
  if (stored === undefined) return err(malformed(SCHEME, "hash", "is not canonical"));
  if (stored.length !== digestLength(digestName) || stored.length < MIN_DIGEST_BYTES) return err(malformed(SCHEME, "hash", `is not a ${digestName} digest`));
  return ok({ family: "hmac", digestName, key, digest: stored });
}

export function parseHmac(encoded: string): Result<HmacHash, HashRejection> {
  const match = /^\$hmac-([a-z0-9]+)\$([^$]*)\$([^$]*)$/.exec(encoded);
  if (match === null) return err(malformed(SCHEME, "the string", "does not have the $hmac-<digest>$hash$key shape"));
  const digestName = DIGESTS[match[1] ?? ""];
  if (digestName === undefined) return err(malformed(SCHEME, "digest", "is not supported"));
  const hexBytes = decodeBase64(match[2] ?? "", "required");
  const key = decodeBase64(match[3] ?? "", "required");
  if (key === undefined || key.length === 0) return err(malformed(SCHEME, "key", "is not canonical base64"));
  const stored = hexBytes === undefined ? undefined : decodeHex(new TextDecoder("latin1").decode(hexBytes));
  return hmacHash(digestName, key, stored);
}

export function verifyHmac(hash: HmacHash, password: Uint8Array): Promise<boolean> {
  return Promise.resolve(constantTimeEqual(hmacDigest(hash.digestName, hash.key, password), hash.digest));
}
