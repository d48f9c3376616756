import { BCRYPT_ALPHABET, decodeRadix64, encodeRadix64, isCanonicalRadix64 } from "./radix64.js";

export function decodeBcrypt64(text: string): Uint8Array | undefined {
  return decodeRadix64(text, BCRYPT_ALPHABET, "forbidden");
}

/** Whether `decodeBcrypt64(text)` would decode it, without the bytes. */
export function isCanonicalBcrypt64(text: string): boolean {
  return isCanonicalRadix64(text, BCRYPT_ALPHABET);
}

export function encodeBcrypt64(bytes: Uint8Array): string {
  return encodeRadix64(bytes, BCRYPT_ALPHABET, false);
}
