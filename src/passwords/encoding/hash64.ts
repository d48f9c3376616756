/**
 * The crypt(3) alphabet `./0-9A-Za-z`, little-endian: each group of three bytes b0,b1,b2 is the
 * number b0 | b1<<8 | b2<<16, written low six bits first. phpass, Drupal, `$7$` use it on the
 * bytes in order; MD5-crypt and SHA-crypt first shuffle the bytes (see `permute`).
 */
export const HASH64_ALPHABET = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export const HASH64_CHARS = /^[./0-9A-Za-z]*$/;

export function hash64Value(char: string): number {
  return HASH64_ALPHABET.indexOf(char);
}

export function encodeHash64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const count = Math.min(3, bytes.length - i);
    let value = 0;
    for (let k = 0; k < count; k++) value |= (bytes[i + k] ?? 0) << (8 * k);
    for (let k = 0; k <= count; k++) out += HASH64_ALPHABET[(value >> (6 * k)) & 63];
  }
  return out;
}

/** Strict: undefined on a foreign character, an impossible length, or stray high bits. */
export function decodeHash64(text: string): Uint8Array | undefined {
  if (!HASH64_CHARS.test(text) || text.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  for (let i = 0, at = 0; i < text.length; i += 4) {
    const chars = text.slice(i, i + 4);
    let value = 0;
    for (let k = 0; k < chars.length; k++) value |= hash64Value(chars.charAt(k)) << (6 * k);
    for (let k = 0; k < chars.length - 1; k++) out[at++] = (value >> (8 * k)) & 0xff;
  }
  return encodeHash64(out) === text ? out : undefined;
}

/** Reorders bytes: `order[i]` is the index of the byte written i-th. */
export function permute(bytes: Uint8Array, order: readonly number[]): Uint8Array {
  return Uint8Array.from(order, (index) => bytes[index] ?? 0);
}

/** The inverse of `permute` with the same order. */
export function unpermute(bytes: Uint8Array, order: readonly number[]): Uint8Array {
  const out = new Uint8Array(order.length);
  order.forEach((index, i) => {
    out[index] = bytes[i] ?? 0;
  });
  return out;
}
