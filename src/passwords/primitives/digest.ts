import { hmac } from "@noble/hashes/hmac.js";
import { md5, sha1 } from "@noble/hashes/legacy.js";
import { sha224, sha256, sha384, sha512 } from "@noble/hashes/sha2.js";
import type { CHash } from "@noble/hashes/utils.js";
import { sha3_224, sha3_256, sha3_384, sha3_512 } from "@noble/hashes/sha3.js";

/** The one-shot digests the legacy formats are built on. */
export type DigestName =
  | "md5"
  | "sha1"
  | "sha224"
  | "sha256"
  | "sha384"
  | "sha512"
  | "sha3-224"
  | "sha3-256"
  | "sha3-384"
  | "sha3-512";

/** What we need of a noble hash: one-shot, its output length, and what hmac/pbkdf2 take. */
type NobleHash = CHash;

const HASHES: Readonly<Record<DigestName, NobleHash>> = {
  md5,
  sha1,
  sha224,
  sha256,
  sha384,
  sha512,
  "sha3-224": sha3_224,
  "sha3-256": sha3_256,
  "sha3-384": sha3_384,
  "sha3-512": sha3_512,
};

export const DIGEST_NAMES: readonly DigestName[] = Object.keys(HASHES) as DigestName[];

export function nobleHash(name: DigestName): NobleHash {
  return HASHES[name];
}

export function digestLength(name: DigestName): number {
  return HASHES[name].outputLen;
}

export function digest(name: DigestName, data: Uint8Array): Uint8Array {
  return HASHES[name](data);
}

export function hmacDigest(name: DigestName, key: Uint8Array, data: Uint8Array): Uint8Array {
  return hmac(HASHES[name], key, data);
}
