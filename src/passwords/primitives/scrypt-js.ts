import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { slicedLoop } from "./yielding.js";

/**
 * scrypt (RFC 7914) in pure JS, for runtimes without node:crypto. Written here rather than taken
 * from @noble/hashes because noble computes the PBKDF2 steps at both ends in one go: 128*r*p
 * bytes of HMAC output, then their hash, which held the event loop for half a second at p = 2^16;
 * and one BlockMix (2r Salsa20/8 cores) is its smallest step, some tens of milliseconds at large
 * r. Here every loop is sliced, down to a few dozen cores per step.
 */

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
/** Input bytes hashed per step of a large HMAC message: well under a millisecond. */
const MESSAGE_CHUNK = 64 * 1024;
/** Salsa20/8 cores per step of the mixing loop: some microseconds. */
const CORES_PER_STEP = 32;
/** Words swapped or wiped per step. */
const WORDS_PER_STEP = 1 << 20;

function rotl(value: number, shift: number): number {
  return (value << shift) | (value >>> (32 - shift));
}

/**
 * One core of BlockMix: `t` becomes Salsa20/8 of (t xor the 16 words of `x` at `xAt`), and is
 * also written to `y` at `yAt`. Salsa20/8 is four double rounds, then its input added back.
 */
function salsa8Xor(t: Uint32Array, x: Uint32Array, xAt: number, y: Uint32Array, yAt: number): void {
  const i0 = t[0]! ^ x[xAt]!, i1 = t[1]! ^ x[xAt + 1]!, i2 = t[2]! ^ x[xAt + 2]!, i3 = t[3]! ^ x[xAt + 3]!;
  const i4 = t[4]! ^ x[xAt + 4]!, i5 = t[5]! ^ x[xAt + 5]!, i6 = t[6]! ^ x[xAt + 6]!, i7 = t[7]! ^ x[xAt + 7]!;
  const i8 = t[8]! ^ x[xAt + 8]!, i9 = t[9]! ^ x[xAt + 9]!, i10 = t[10]! ^ x[xAt + 10]!, i11 = t[11]! ^ x[xAt + 11]!;
  const i12 = t[12]! ^ x[xAt + 12]!, i13 = t[13]! ^ x[xAt + 13]!, i14 = t[14]! ^ x[xAt + 14]!, i15 = t[15]! ^ x[xAt + 15]!;
  let x0 = i0, x1 = i1, x2 = i2, x3 = i3, x4 = i4, x5 = i5, x6 = i6, x7 = i7;
  let x8 = i8, x9 = i9, x10 = i10, x11 = i11, x12 = i12, x13 = i13, x14 = i14, x15 = i15;
  for (let round = 0; round < 8; round += 2) {
    // Columns.
    x4 ^= rotl(x0 + x12, 7);
    x8 ^= rotl(x4 + x0, 9);
    x12 ^= rotl(x8 + x4, 13);
    x0 ^= rotl(x12 + x8, 18);
    x9 ^= rotl(x5 + x1, 7);
    x13 ^= rotl(x9 + x5, 9);
    x1 ^= rotl(x13 + x9, 13);
    x5 ^= rotl(x1 + x13, 18);
    x14 ^= rotl(x10 + x6, 7);
    x2 ^= rotl(x14 + x10, 9);
    x6 ^= rotl(x2 + x14, 13);
    x10 ^= rotl(x6 + x2, 18);
    x3 ^= rotl(x15 + x11, 7);
    x7 ^= rotl(x3 + x15, 9);
    x11 ^= rotl(x7 + x3, 13);
    x15 ^= rotl(x11 + x7, 18);
    // Rows.
    x1 ^= rotl(x0 + x3, 7);
    x2 ^= rotl(x1 + x0, 9);
    x3 ^= rotl(x2 + x1, 13);
    x0 ^= rotl(x3 + x2, 18);
    x6 ^= rotl(x5 + x4, 7);
    x7 ^= rotl(x6 + x5, 9);
    x4 ^= rotl(x7 + x6, 13);
    x5 ^= rotl(x4 + x7, 18);
    x11 ^= rotl(x10 + x9, 7);
    x8 ^= rotl(x11 + x10, 9);
    x9 ^= rotl(x8 + x11, 13);
    x10 ^= rotl(x9 + x8, 18);
    x12 ^= rotl(x15 + x14, 7);
    x13 ^= rotl(x12 + x15, 9);
    x14 ^= rotl(x13 + x12, 13);
    x15 ^= rotl(x14 + x13, 18);
  }
  // Uint32Array stores modulo 2^32.
  y[yAt] = t[0] = i0 + x0;
  y[yAt + 1] = t[1] = i1 + x1;
  y[yAt + 2] = t[2] = i2 + x2;
  y[yAt + 3] = t[3] = i3 + x3;
  y[yAt + 4] = t[4] = i4 + x4;
  y[yAt + 5] = t[5] = i5 + x5;
  y[yAt + 6] = t[6] = i6 + x6;
  y[yAt + 7] = t[7] = i7 + x7;
  y[yAt + 8] = t[8] = i8 + x8;
  y[yAt + 9] = t[9] = i9 + x9;
  y[yAt + 10] = t[10] = i10 + x10;
  y[yAt + 11] = t[11] = i11 + x11;
  y[yAt + 12] = t[12] = i12 + x12;
  y[yAt + 13] = t[13] = i13 + x13;
  y[yAt + 14] = t[14] = i14 + x14;
  y[yAt + 15] = t[15] = i15 + x15;
}

/** What is used of noble's HMAC: `_cloneInto` copies the state into an earlier copy, allocating nothing. */
interface HmacState {
  update(data: Uint8Array): HmacState;
  digestInto(out: Uint8Array): void;
  _cloneInto(to?: HmacState): HmacState;
}

/** PBKDF2-HMAC-SHA256 with one iteration, as scrypt uses it at both ends; the salt may be large. */
async function pbkdf2Once(password: Uint8Array, salt: Uint8Array, length: number): Promise<Uint8Array> {
  const salted: HmacState = hmac.create(sha256, password);
  await slicedLoop(Math.ceil(salt.length / MESSAGE_CHUNK), (i) => {
    salted.update(salt.subarray(i * MESSAGE_CHUNK, (i + 1) * MESSAGE_CHUNK));
  });
  const out = new Uint8Array(length);
  const index = new Uint8Array(4);
  const view = new DataView(index.buffer);
  const block = new Uint8Array(32);
  // One copy of the salted state, reused for every block: a million blocks made a million objects otherwise.
  let copy: HmacState | undefined;
  await slicedLoop(Math.ceil(length / 32), (i) => {
    view.setUint32(0, i + 1);
    copy = salted._cloneInto(copy);
    copy.update(index).digestInto(block);
    out.set(block.subarray(0, Math.min(32, length - 32 * i)), 32 * i);
  });
  return out;
}

/** scrypt's words are little-endian; on a big-endian machine the bytes of each are swapped, in slices. */
async function toLittleEndian(words: Uint32Array): Promise<void> {
  if (LITTLE_ENDIAN) return;
  const bytes = new DataView(words.buffer, words.byteOffset, words.byteLength);
  await slicedLoop(Math.ceil(words.length / WORDS_PER_STEP), (chunk) => {
    const end = Math.min(words.length, (chunk + 1) * WORDS_PER_STEP);
    for (let w = chunk * WORDS_PER_STEP; w < end; w++) bytes.setUint32(4 * w, bytes.getUint32(4 * w), true);
  });
}

async function wipe(words: Uint32Array): Promise<void> {
  await slicedLoop(Math.ceil(words.length / WORDS_PER_STEP), (chunk) => words.fill(0, chunk * WORDS_PER_STEP, (chunk + 1) * WORDS_PER_STEP));
}

export interface ScryptCost {
  readonly n: number;
  readonly r: number;
  readonly p: number;
}

/**
 * ROMix of every lane of `b`, in place, one Salsa20/8 core at a time. A lane is 2r chunks of
 * 16 words; ROMix runs 2N BlockMixes over it (N filling V, N reading it back), and a BlockMix
 * runs one core per chunk. Copying a lane into V, XORing V's block in, and loading and storing
 * the lane are all done chunk by chunk inside the cores, so that no step is larger than a core.
 */
async function mixLanes(b: Uint32Array, { n, r, p }: ScryptCost): Promise<void> {
  const laneWords = 32 * r;
  const chunks = 2 * r;
  const v = new Uint32Array(laneWords * n);
  const buffers = [new Uint32Array(laneWords), new Uint32Array(laneWords)] as const;
  const t = new Uint32Array(16);
  // Where the cores are: lane, BlockMix k in 0..2N-1, chunk i in 0..2r-1; advanced core by core.
  let lane = 0;
  let k = 0;
  let i = 0;
  // The current BlockMix reads x from xAt and writes y from yAt; the first of a lane reads the
  // lane itself, the last writes it back, the others go between the two buffers.
  let x: Uint32Array = b;
  let xAt = 0;
  let y: Uint32Array = buffers[0];
  let yAt = 0;
  let j = 0;

  const startBlockMix = (): void => {
    x = k === 0 ? b : (k & 1) === 1 ? buffers[0] : buffers[1];
    xAt = k === 0 ? lane * laneWords : 0;
    y = k === 2 * n - 1 ? b : (k & 1) === 0 ? buffers[0] : buffers[1];
    yAt = k === 2 * n - 1 ? lane * laneWords : 0;
    // T starts as the input's last chunk; when reading V back, the input is X xor V[j], with j
    // taken from X's last chunk.
    const last = xAt + (chunks - 1) * 16;
    if (k < n) {
      for (let w = 0; w < 16; w++) t[w] = x[last + w]!;
    } else {
      j = x[last]! % n;
      const fromV = j * laneWords + (chunks - 1) * 16;
      for (let w = 0; w < 16; w++) t[w] = x[last + w]! ^ v[fromV + w]!;
    }
  };

  const core = (): void => {
    if (i === 0) startBlockMix();
    const chunk = xAt + 16 * i;
    if (k < n) {
      const into = k * laneWords + 16 * i;
      for (let w = 0; w < 16; w++) v[into + w] = x[chunk + w]!;
    } else {
      const fromV = j * laneWords + 16 * i;
      for (let w = 0; w < 16; w++) t[w] = t[w]! ^ v[fromV + w]!;
    }
    // Even cores' outputs form the first half of the BlockMix output, odd cores' the second.
    salsa8Xor(t, x, chunk, y, yAt + 16 * ((i & 1) === 0 ? i >> 1 : r + (i >> 1)));
    if (++i < chunks) return;
    i = 0;
    if (++k < 2 * n) return;
    k = 0;
    lane += 1;
  };

  const total = p * 2 * n * chunks;
  await slicedLoop(Math.ceil(total / CORES_PER_STEP), (step) => {
    const end = Math.min(total, (step + 1) * CORES_PER_STEP);
    for (let c = step * CORES_PER_STEP; c < end; c++) core();
  });
  await wipe(v);
  await wipe(buffers[0]);
  await wipe(buffers[1]);
}

export async function scryptJs(password: Uint8Array, salt: Uint8Array, cost: ScryptCost, keyBytes: number): Promise<Uint8Array> {
  const bytes = await pbkdf2Once(password, salt, 128 * cost.r * cost.p);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  await toLittleEndian(words);
  await mixLanes(words, cost);
  await toLittleEndian(words);
  const key = await pbkdf2Once(password, bytes, keyBytes);
  await wipe(words);
  return key;
}
