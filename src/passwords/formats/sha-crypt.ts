import { err, ok, type Result } from "neverthrow";
import type { HashBounds } from "../bounds.js";
import { constantTimeEqual } from "../constant-time.js";
import { concatBytes, latin1 } from "../encoding/bytes.js";
import { decodeHash64, unpermute } from "../encoding/hash64.js";
import { parseDecimal } from "../numbers.js";
import { digest } from "../primitives/digest.js";
import { digestStreams, repeatedDigest } from "../primitives/fast-digest.js";
import { costOutOfRange, malformed, type HashRejection } from "../rejection.js";
import { cryptRounds } from "./crypt-rounds.js";
import { CRYPT_SALT_CHARACTERS, isCryptSalt } from "./crypt-salt.js";

/** A parsed SHA-crypt hash (`$5$`, `$6$`, and their named forms). */
export interface ShaCryptHash {
  readonly family: "sha-crypt";
  readonly digestName: "sha256" | "sha512";
  readonly rounds: number;
  readonly salt: string;
  readonly digest: Uint8Array;
}

const SCHEME = "sha-crypt";
const SHAPE = /^\$(5|6|sha256-crypt|sha512-crypt)\$(?:rounds=([^$]*)\$)?([^$]*)\$([^$]*)$/;
const DEFAULT_ROUNDS = 5000;
/** Drepper's minimum: a conforming crypt never writes fewer rounds. */
const MIN_ROUNDS = 1000;
const MAX_SALT = 16;

/** Byte order of the encoded digests, from Drepper's specification, low byte of each group first. */
const SHA256_ORDER = [20, 10, 0, 11, 1, 21, 2, 22, 12, 23, 13, 3, 14, 4, 24, 5, 25, 15, 26, 16, 6, 17, 7, 27, 8, 28, 18, 29, 19, 9, 30, 31] as const;
const SHA512_ORDER = [
  42, 21, 0, 1, 43, 22, 23, 2, 44, 45, 24, 3, 4, 46, 25, 26, 5, 47, 48, 27, 6, 7, 49, 28, 29, 8, 50, 51, 30, 9, 10, 52, 31, 32, 11, 53, 54, 33, 12, 13,
  55, 34, 35, 14, 56, 57, 36, 15, 16, 58, 37, 38, 17, 59, 60, 39, 18, 19, 61, 40, 41, 20, 62, 63,
] as const;

export function parseShaCrypt(encoded: string): Result<ShaCryptHash, HashRejection> {
  const match = SHAPE.exec(encoded);
  if (match === null) return err(malformed(SCHEME, "the string", "does not have the $5$[rounds=N$]salt$hash shape"));
  const [, id, roundsText, salt, checksum] = match as unknown as [string, string, string | undefined, string, string];
  const digestName = id === "5" || id === "sha256-crypt" ? "sha256" : "sha512";
  let rounds = DEFAULT_ROUNDS;
  if (roundsText !== undefined) {
    const parsed = parseDecimal(roundsText);
    if (parsed.kind === "malformed") return err(malformed(SCHEME, "rounds", "is not a decimal number without leading zeros"));
    if (parsed.kind === "huge") return err(costOutOfRange(SCHEME, "rounds", "far too large"));
    if (parsed.value < MIN_ROUNDS) return err(malformed(SCHEME, "rounds", `is below ${MIN_ROUNDS}`));
    rounds = parsed.value;
  }
  // A hash without a salt after its rounds (`$5$rounds=1000$<hash>`) matches with "rounds=1000"
  // as the salt; crypt reads it as rounds, so it is refused, as crypt refuses it.
  if (salt.startsWith("rounds=")) return err(malformed(SCHEME, "salt", "is missing after rounds="));
  if (!isCryptSalt(salt) || salt.length > MAX_SALT) return err(malformed(SCHEME, "salt", `is not up to 16 ${CRYPT_SALT_CHARACTERS}`));
  const order = digestName === "sha256" ? SHA256_ORDER : SHA512_ORDER;
  const permuted = checksum.length === (digestName === "sha256" ? 43 : 86) ? decodeHash64(checksum) : undefined;
  if (permuted === undefined) return err(malformed(SCHEME, "checksum", "is not a canonical crypt base64 digest of the right length"));
  return ok({ family: "sha-crypt", digestName, rounds, salt, digest: unpermute(permuted, order) });
}

export function checkShaCryptBounds(hash: ShaCryptHash, bounds: HashBounds): HashRejection | undefined {
  return hash.rounds > bounds.shaCryptMaxRounds ? costOutOfRange(SCHEME, "rounds", `${MIN_ROUNDS}..${bounds.shaCryptMaxRounds}`) : undefined;
}

/** `source` repeated to exactly `length` bytes. */
function stretch(source: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let at = 0; at < length; at += source.length) out.set(source.subarray(0, Math.min(source.length, length - at)), at);
  return out;
}

/** Ulrich Drepper's SHA-crypt (the `$5$` / `$6$` algorithm of glibc). */
export async function shaCrypt(name: ShaCryptHash["digestName"], password: Uint8Array, salt: Uint8Array, rounds: number): Promise<Uint8Array> {
  const create = await digestStreams(name);
  const alternate = digest(name, concatBytes(password, salt, password));
  const a: Uint8Array[] = [password, salt, stretch(alternate, password.length)];
  for (let n = password.length; n > 0; n >>= 1) a.push((n & 1) === 1 ? alternate : password);
  const start = digest(name, concatBytes(...a));
  // The password hashed once per byte of itself: a megabyte for a 1024-byte password, so sliced.
  const p = stretch(await repeatedDigest(create, password, password.length), password.length);
  const s = stretch(await repeatedDigest(create, salt, 16 + (start[0] ?? 0)), salt.length);
  return cryptRounds(create, rounds, start, p, s);
}

export async function verifyShaCrypt(hash: ShaCryptHash, password: Uint8Array): Promise<boolean> {
  const computed = await shaCrypt(hash.digestName, password, latin1(hash.salt), hash.rounds);
  return constantTimeEqual(computed, hash.digest);
}
