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
 * Replaces `target` by successive encryptions of the running block `block`, each first XORed
 * with the next two words of `data` when there is one (`data` cycles from `d`); returns where in
 * `data` it stopped.
 */
function refill(p: Int32Array, s: Int32Array, target: Int32Array, block: Int32Array, data: Int32Array | undefined, d: number): number {
  for (let i = 0; i < target.length; i += 2) {
    if (data !== undefined) {
      block[0] = block[0]! ^ data[d++ % data.length]!;
      block[1] = block[1]! ^ data[d++ % data.length]!;
    }
    encipher(p, s, block, 0);
    target[i] = block[0]!;
    target[i + 1] = block[1]!;
  }
  return d;
}

/**
 * `refill` of the S-boxes without data: 512 of the 521 encryptions of every key expansion, so
 * nearly all of bcrypt's time. Written out, with P in locals (it does not change here), it
 * measured about 15% faster than the loop in `encipher`, and faster than bcryptjs.
 */
function refillS(p: Int32Array, s: Int32Array, block: Int32Array): void {
  let l = block[0]!;
  let r = block[1]!;
  const p0 = p[0]!;
  const p1 = p[1]!;
  const p2 = p[2]!;
  const p3 = p[3]!;
  const p4 = p[4]!;
  const p5 = p[5]!;
  const p6 = p[6]!;
  const p7 = p[7]!;
  const p8 = p[8]!;
  const p9 = p[9]!;
  const p10 = p[10]!;
  const p11 = p[11]!;
  const p12 = p[12]!;
  const p13 = p[13]!;
  const p14 = p[14]!;
  const p15 = p[15]!;
  const p16 = p[16]!;
  const p17 = p[17]!;
  for (let i = 0; i < 1024; i += 2) {
    l ^= p0;
    r ^= (((s[l >>> 24]! + s[256 | ((l >>> 16) & 255)]!) ^ s[512 | ((l >>> 8) & 255)]!) + s[768 | (l & 255)]!) ^ p1;
    l ^= (((s[r >>> 24]! + s[256 | ((r >>> 16) & 255)]!) ^ s[512 | ((r >>> 8) & 255)]!) + s[768 | (r & 255)]!) ^ p2;
    r ^= (((s[l >>> 24]! + s[256 | ((l >>> 16) & 255)]!) ^ s[512 | ((l >>> 8) & 255)]!) + s[768 | (l & 255)]!) ^ p3;
    l ^= (((s[r >>> 24]! + s[256 | ((r >>> 16) & 255)]!) ^ s[512 | ((r >>> 8) & 255)]!) + s[768 | (r & 255)]!) ^ p4;
    r ^= (((s[l >>> 24]! + s[256 | ((l >>> 16) & 255)]!) ^ s[512 | ((l >>> 8) & 255)]!) + s[768 | (l & 255)]!) ^ p5;
    l ^= (((s[r >>> 24]! + s[256 | ((r >>> 16) & 255)]!) ^ s[512 | ((r >>> 8) & 255)]!) + s[768 | (r & 255)]!) ^ p6;
    r ^= (((s[l >>> 24]! + s[256 | ((l >>> 16) & 255)]!) ^ s[512 | ((l >>> 8) & 255)]!) + s[768 | (l & 255)]!) ^ p7;
    l ^= (((s[r >>> 24]! + s[256 | ((r >>> 16) & 255)]!) ^ s[512 | ((r >>> 8) & 255)]!) + s[768 | (r & 255)]!) ^ p8;
    r ^= (((s[l >>> 24]! + s[256 | ((l >>> 16) & 255)]!) ^ s[512 | ((l >>> 8) & 255)]!) + s[768 | (l & 255)]!) ^ p9;
    l ^= (((s[r >>> 24]! + s[256 | ((r >>> 16) & 255)]!) ^ s[512 | ((r >>> 8) & 255)]!) + s[768 | (r & 255)]!) ^ p10;
    r ^= (((s[l >>> 24]! + s[256 | ((l >>> 16) & 255)]!) ^ s[512 | ((l >>> 8) & 255)]!) + s[768 | (l & 255)]!) ^ p11;
    l ^= (((s[r >>> 24]! + s[256 | ((r >>> 16) & 255)]!) ^ s[512 | ((r >>> 8) & 255)]!) + s[768 | (r & 255)]!) ^ p12;
    r ^= (((s[l >>> 24]! + s[256 | ((l >>> 16) & 255)]!) ^ s[512 | ((l >>> 8) & 255)]!) + s[768 | (l & 255)]!) ^ p13;
    l ^= (((s[r >>> 24]! + s[256 | ((r >>> 16) & 255)]!) ^ s[512 | ((r >>> 8) & 255)]!) + s[768 | (r & 255)]!) ^ p14;
    r ^= (((s[l >>> 24]! + s[256 | ((l >>> 16) & 255)]!) ^ s[512 | ((l >>> 8) & 255)]!) + s[768 | (l & 255)]!) ^ p15;
    l ^= (((s[r >>> 24]! + s[256 | ((r >>> 16) & 255)]!) ^ s[512 | ((r >>> 8) & 255)]!) + s[768 | (r & 255)]!) ^ p16;
    const swapped = r ^ p17;
    r = l;
    l = swapped;
    s[i] = l;
    s[i + 1] = r;
  }
  block[0] = l;
  block[1] = r;
}

/**
 * Blowfish's key schedule: XOR `key` (18 words) into P, then refill P and the S-boxes from a
 * zero block; bcrypt's salted set-up also mixes the salt's four words (`data`) in as it goes.
 */
function expandKey(p: Int32Array, s: Int32Array, key: Int32Array, block: Int32Array, data?: Int32Array): void {
  for (let i = 0; i < P_WORDS; i++) p[i] = p[i]! ^ key[i]!;
  block[0] = 0;
  block[1] = 0;
  const d = refill(p, s, p, block, data, 0);
  if (data === undefined) refillS(p, s, block);
  else refill(p, s, s, block, data, d);
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
  expandKey(p, s, keyWords, block, saltWords.subarray(0, 4));
  await slicedLoop(2 ** cost, () => {
    expandKey(p, s, keyWords, block);
    expandKey(p, s, saltWords, block);
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
