import type { CodeKind, CodeSpec, HumanUsersConfig } from "../../ports/config.js";
import type { Keys, KeySet } from "../../ports/keys.js";
import type { RandomSource } from "../../ports/random-source.js";
import { decodeLenientBase64 } from "../../shared/base64.js";
import type { HashedCode } from "../events/user-events.js";
import { hmacSha256, hmacSha256Base64 } from "./sha256.js";

const UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const LETTERS_DIGITS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

export const defaultCodeSpecs: Readonly<Record<CodeKind, CodeSpec>> = Object.freeze({
  email: { length: 6, alphabet: UPPER_DIGITS, lifetimeSeconds: 3600 },
  phone: { length: 6, alphabet: UPPER_DIGITS, lifetimeSeconds: 3600 },
  init: { length: 6, alphabet: UPPER_DIGITS, lifetimeSeconds: 72 * 3600 },
  passwordless: { length: 12, alphabet: LETTERS_DIGITS, lifetimeSeconds: 3600 },
  passwordReset: { length: 6, alphabet: UPPER_DIGITS, lifetimeSeconds: 3600 },
});

/** The configured members of `kind` over its defaults; a member left undefined keeps its default. */
export function codeSpec(config: HumanUsersConfig | undefined, kind: CodeKind): CodeSpec {
  const given = config?.codes?.[kind];
  const defaults = defaultCodeSpecs[kind];
  return {
    length: given?.length ?? defaults.length,
    alphabet: given?.alphabet ?? defaults.alphabet,
    lifetimeSeconds: given?.lifetimeSeconds ?? defaults.lifetimeSeconds,
  };
}

export const CODE_LENGTH = { min: 1, max: 64 } as const;
export const ALPHABET_SIZE = { min: 2, max: 256 } as const;
/** Refills of the buffer before a random source that gives only refused bytes is given up on. */
const MAX_REFILLS = 64;

const alphabets = new Map<string, readonly string[] | undefined>();

/**
 * The alphabet's characters (code points, so that a character outside the Basic Multilingual Plane
 * stays whole), or undefined when it has fewer than 2 or more than 256 or repeats one: one random
 * byte must pick a character, and a repeated one would be drawn twice as often.
 */
export function alphabetCharacters(alphabet: string): readonly string[] | undefined {
  if (alphabets.has(alphabet)) return alphabets.get(alphabet);
  const characters = alphabet.length > 2 * ALPHABET_SIZE.max ? [] : Array.from(alphabet);
  const usable = characters.length >= ALPHABET_SIZE.min && characters.length <= ALPHABET_SIZE.max && new Set(characters).size === characters.length;
  const result = usable ? characters : undefined;
  if (alphabets.size >= 64) alphabets.clear();
  alphabets.set(alphabet, result);
  return result;
}

export function isCodeLength(length: unknown): length is number {
  return typeof length === "number" && Number.isInteger(length) && length >= CODE_LENGTH.min && length <= CODE_LENGTH.max;
}

/**
 * A code drawn from `random` without modulo bias: bytes at or above the largest multiple of the
 * alphabet's size are thrown away and drawn again. A source that gives nothing usable in 64
 * refills is broken, not unlucky (a real one does that with odds below 2^-1000): that throws, and the
 * operation answers 13. A spec the configuration check refuses throws a RangeError.
 */
export function generateCode(spec: CodeSpec, random: RandomSource): string {
  const characters = alphabetCharacters(spec.alphabet);
  if (characters === undefined) throw new RangeError(`a code alphabet needs ${ALPHABET_SIZE.min} to ${ALPHABET_SIZE.max} distinct characters`);
  if (!isCodeLength(spec.length)) throw new RangeError(`a code length is a whole number from ${CODE_LENGTH.min} to ${CODE_LENGTH.max}`);
  const size = characters.length;
  const limit = 256 - (256 % size);
  let code = "";
  let drawn = 0;
  const buffer = new Uint8Array(Math.max(16, spec.length * 2));
  for (let refill = 0; drawn < spec.length; refill++) {
    if (refill === MAX_REFILLS) throw new Error("the random source gave no usable bytes");
    random.fill(buffer);
    for (const byte of buffer) {
      if (byte >= limit) continue;
      code += characters[byte % size];
      drawn += 1;
      if (drawn === spec.length) break;
    }
  }
  return code;
}

/** How a code is kept: its keyed hash under the current keys, never the code. */
export function hashedCode(code: string, keys: Keys): HashedCode {
  return { algorithm: "HMAC-SHA256", keyId: keys.keyId, hash: hmacSha256Base64(keys.codeHmacKey, code) };
}

/** The key set a stored value names: the current one, or one a rotation retired. */
export function keySetById(keys: Keys, keyId: string): KeySet | undefined {
  return keys.keyId === keyId ? keys : keys.previous?.find((previous) => previous.keyId === keyId);
}

/** Equal bytes, compared in time that depends on their length only. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return difference === 0;
}

/**
 * Whether `code` is the one `stored` was made from, under the key it names (current or
 * retired). The comparison is constant-time; a code under an unknown key never matches.
 */
export function codeMatches(code: string, stored: HashedCode, keys: Keys): boolean {
  const keySet = keySetById(keys, stored.keyId);
  const expected = decodeLenientBase64(stored.hash);
  if (keySet === undefined || expected === undefined || stored.algorithm !== "HMAC-SHA256") return false;
  return sameBytes(hmacSha256(keySet.codeHmacKey, code), expected);
}
