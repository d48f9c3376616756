/**
 * Big-endian 6-bit encodings (RFC 4648 base64 and its cousins that only swap the alphabet).
 * Decoding is strict: a string decodes only if encoding the result gives the same string back,
 * so every hash has exactly one accepted spelling.
 */
export const STANDARD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/** passlib's "adapted base64": `.` instead of `+`, never padded. */
export const ADAPTED_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789./";
/** bcrypt's alphabet, in bcrypt's order. */
export const BCRYPT_ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export type Padding = "required" | "forbidden" | "optional";

const lookups = new Map<string, Int16Array>();

function lookupFor(alphabet: string): Int16Array {
  let table = lookups.get(alphabet);
  if (table === undefined) {
    table = new Int16Array(128).fill(-1);
    for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
    lookups.set(alphabet, table);
  }
  return table;
}

/** Strips valid padding; undefined when the padding is wrong for `padding` or the length. */
function unpad(text: string, padding: Padding): string | undefined {
  const body = text.replace(/={1,2}$/, "");
  const padCount = text.length - body.length;
  if (padCount === 0) {
    if (padding === "required" && body.length % 4 !== 0) return undefined;
    return body;
  }
  if (padding === "forbidden") return undefined;
  if (text.length % 4 !== 0 || (4 - (body.length % 4)) % 4 !== padCount) return undefined;
  return body;
}

export function decodeRadix64(text: string, alphabet: string, padding: Padding): Uint8Array | undefined {
  const body = unpad(text, padding);
  if (body === undefined || body.length % 4 === 1) return undefined;
  const table = lookupFor(alphabet);
  const out = new Uint8Array(Math.floor((body.length * 6) / 8));
  let buffer = 0;
  let bits = 0;
  let at = 0;
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    const value = code < 128 ? (table[code] ?? -1) : -1;
    if (value < 0) return undefined;
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (buffer >> bits) & 0xff;
      buffer &= (1 << bits) - 1;
    }
  }
  // Leftover bits must be zero: otherwise two strings would decode to the same bytes.
  return buffer === 0 ? out : undefined;
}

/**
 * Whether `text` decodes without padding (`decodeRadix64(text, alphabet, "forbidden")` is not
 * undefined), without decoding it: every character in the alphabet, a possible length, and the
 * bits past the last whole byte, which are the low bits of the last character, all zero. A parse
 * that only checks a hash's spelling allocates nothing this way.
 */
export function isCanonicalRadix64(text: string, alphabet: string): boolean {
  const length = text.length;
  if (length % 4 === 1) return false;
  const table = lookupFor(alphabet);
  let last = 0;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    last = code < 128 ? (table[code] ?? -1) : -1;
    if (last < 0) return false;
  }
  const spareBits = (length * 6) % 8;
  return (last & ((1 << spareBits) - 1)) === 0;
}

export function encodeRadix64(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += alphabet[(buffer >> bits) & 63];
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += alphabet[(buffer << (6 - bits)) & 63];
  if (pad) out += "=".repeat((4 - (out.length % 4)) % 4);
  return out;
}
