import { PI_FRACTION_HEX } from "./blowfish-pi.js";
import { slicedLoop } from "./yielding.js";

/**
 * bcrypt (Provos and Mazières' EksBlowfish) on bytes. Written here rather than taken from
 * bcryptjs because that package takes passwords only as strings (so legacy passwords that are
 * not UTF-8 cannot be checked) and keeps the event loop for up to 100 ms at a time; this one
 * runs in slices of a few milliseconds.
 */

const P_WORDS = 18;
const S_WORDS = 4 * 256;
/** The key bytes bcrypt reads: 18 words; longer passwords are cut, as every bcrypt does. */
export const BCRYPT_MAX_KEY_BYTES = 4 * P_WORDS;
export const BCRYPT_SALT_BYTES = 16;
/** bcrypt encodes 23 of the 24 bytes it computes. */
export const BCRYPT_DIGEST_BYTES = 23;
/** "OrpheanBeholderScryDoubt" as six big-endian words. */
const MAGIC = Int32Array.from([0x4f727068, 0x65616e42, 0x65686f6c, 0x64657253, 0x63727944, 0x6f756274]);

let initialState: Int32Array | undefined;

/** P-array then S-boxes, from pi, decoded once. */
function initial(): Int32Array {
  initialState ??= Int32Array.from({ length: P_WORDS + S_WORDS }, (_, i) => Number.parseInt(PI_FRACTION_HEX.slice(8 * i, 8 * i + 8), 16) | 0);
  return initialState;
}

/** `bytes` read as big-endian words, cycling from the start: Blowfish's key stream. */
function cyclicWords(bytes: Uint8Array, count: number): Int32Array {
  const words = new Int32Array(count);
  for (let w = 0, at = 0; w < count; w++) {
    let word = 0;
    for (let k = 0; k < 4; k++, at = (at + 1) % bytes.length) word = (word << 8) | (bytes[at] ?? 0);
    words[w] = word;
  }
  return words;
}

/** Encrypts the 64-bit block at `block[at]`, `block[at + 1]` in place. */
function encipher(p: Int32Array, s: Int32Array, block: Int32Array, at: number): void {
  let l = block[at]! ^ p[0]!;
  let r = block[at + 1]!;
  for (let i = 1; i < 17; i += 2) {
    r ^= (((s[l >>> 24]! + s[256 | ((l >>> 16) & 255)]!) ^ s[512 | ((l >>> 8) & 255)]!) + s[768 | (l & 255)]!) ^ p[i]!;
    l ^= (((s[r >>> 24]! + s[256 | ((r >>> 16) & 255)]!) ^ s[512 | ((r >>> 8) & 255)]!) + s[768 | (r & 255)]!) ^ p[i + 1]!;
  }
  block[at] = r ^ p[17]!;
  block[at + 1] = l;
}

/**
 * Blowfish's key schedule: XOR `key` (18 words) into P, then replace P and the S-boxes by
 * successive encryptions of a running block, each first XORed with the next two words of `data`
 * (`data` cycles; bcrypt's plain "expand0" passes zeros, its salted set-up the salt's words).
 */
function expandKey(p: Int32Array, s: Int32Array, key: Int32Array, data: Int32Array | undefined, block: Int32Array): void {
  for (let i = 0; i < P_WORDS; i++) p[i]! ^= key[i]!;
  block[0] = 0;
  block[1] = 0;
  let d = 0;
  const fill = (target: Int32Array, length: number): void => {
    for (let i = 0; i < length; i += 2) {
      if (data !== undefined) {
        block[0]! ^= data[d++ % data.length]!;
        block[1]! ^= data[d++ % data.length]!;
      }
      encipher(p, s, block, 0);
      target[i] = block[0]!;
      target[i + 1] = block[1]!;
    }
  };
  fill(p, P_WORDS);
  fill(s, S_WORDS);
}

/**
 * The 23-byte bcrypt digest of `password` (its first 72 bytes followed by a NUL, as `$2a$`,
 * `$2b$` and `$2y$` all read it) under a 16-byte salt and 2^cost rounds.
 */
export async function bcryptDigest(password: Uint8Array, salt: Uint8Array, cost: number): Promise<Uint8Array> {
  const key = new Uint8Array(Math.min(password.length, BCRYPT_MAX_KEY_BYTES) + 1);
  key.set(password.subarray(0, BCRYPT_MAX_KEY_BYTES));
  const keyWords = cyclicWords(key, P_WORDS);
  const saltWords = cyclicWords(salt, P_WORDS);
  const state = initial().slice();
  const p = state.subarray(0, P_WORDS);
  const s = state.subarray(P_WORDS);
  const block = new Int32Array(2);
  expandKey(p, s, keyWords, saltWords.subarray(0, 4), block);
  await slicedLoop(2 ** cost, () => {
    expandKey(p, s, keyWords, undefined, block);
    expandKey(p, s, saltWords, undefined, block);
  });
  const text = MAGIC.slice();
  for (let round = 0; round < 64; round++) for (let at = 0; at < text.length; at += 2) encipher(p, s, text, at);
  const out = new Uint8Array(4 * text.length);
  text.forEach((word, i) => {
    out[4 * i] = word >>> 24;
    out[4 * i + 1] = (word >>> 16) & 255;
    out[4 * i + 2] = (word >>> 8) & 255;
    out[4 * i + 3] = word & 255;
  });
  return out.subarray(0, BCRYPT_DIGEST_BYTES);
}
