import { err, ok, type Result } from "neverthrow";
import { constantTimeEqual } from "../constant-time.js";
import { concatBytes, latin1 } from "../encoding/bytes.js";
import { decodeHash64, encodeHash64, permute, unpermute } from "../encoding/hash64.js";
import { digest } from "../primitives/digest.js";
import { digestStreams } from "../primitives/fast-digest.js";
import { malformed, type HashRejection } from "../rejection.js";
import { cryptRounds } from "./crypt-rounds.js";
import { CRYPT_SALT_CHARACTERS, isCryptSalt } from "./crypt-salt.js";

/** A parsed MD5-crypt hash (`$1$`, `$apr1$`, `$md5-crypt$`). */
export interface Md5CryptHash {
  readonly family: "md5-crypt";
  /** The magic mixed into the digest: `$1$` (also spelled `$md5-crypt$`) or Apache's `$apr1$`. */
  readonly magic: "$1$" | "$apr1$";
  readonly salt: string;
  readonly digest: Uint8Array;
}

const SCHEME = "md5-crypt";
const SHAPE = /^\$(1|apr1|md5-crypt)\$([^$]{0,8})\$([./0-9A-Za-z]{22})$/;
/** Byte order of the encoded digest (groups of final[i], final[i+6], final[i+12], low byte first). */
const ORDER = [12, 6, 0, 13, 7, 1, 14, 8, 2, 15, 9, 3, 5, 10, 4, 11] as const;
const ROUNDS = 1000;

export function parseMd5Crypt(encoded: string): Result<Md5CryptHash, HashRejection> {
  const match = SHAPE.exec(encoded);
  if (match === null) return err(malformed(SCHEME, "the string", "does not have the $1$<salt up to 8>$<22 characters> shape"));
  const [, magicName, salt, checksum] = match as unknown as [string, string, string, string];
  if (!isCryptSalt(salt)) return err(malformed(SCHEME, "salt", `is not up to 8 ${CRYPT_SALT_CHARACTERS}`));
  const permuted = decodeHash64(checksum);
  if (permuted === undefined) return err(malformed(SCHEME, "checksum", "is not canonical crypt base64"));
  return ok({ family: "md5-crypt", magic: magicName === "apr1" ? "$apr1$" : "$1$", salt, digest: unpermute(permuted, ORDER) });
}

/** Poul-Henning Kamp's MD5-crypt, as in FreeBSD's crypt-md5.c. */
export async function md5Crypt(password: Uint8Array, salt: Uint8Array, magic: Uint8Array): Promise<Uint8Array> {
  const alternate = digest("md5", concatBytes(password, salt, password));
  const parts: Uint8Array[] = [password, magic, salt];
  for (let left = password.length; left > 0; left -= 16) parts.push(alternate.subarray(0, Math.min(left, 16)));
  const zero = new Uint8Array(1);
  for (let i = password.length; i > 0; i >>= 1) parts.push((i & 1) === 1 ? zero : password.subarray(0, 1));
  return cryptRounds(await digestStreams("md5"), ROUNDS, digest("md5", concatBytes(...parts)), password, salt);
}

export function encodeMd5CryptChecksum(raw: Uint8Array): string {
  return encodeHash64(permute(raw, ORDER));
}

export async function verifyMd5Crypt(hash: Md5CryptHash, password: Uint8Array): Promise<boolean> {
  const computed = await md5Crypt(password, latin1(hash.salt), latin1(hash.magic));
  return constantTimeEqual(computed, hash.digest);
}
