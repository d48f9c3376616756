import { BCRYPT_ALPHABET, decodeRadix64, encodeRadix64 } from "./radix64.js";

export function decodeBcrypt64(text: string): Uint8Array | undefined {
  return decodeRadix64(text, BCRYPT_ALPHABET, "forbidden");
}

export function encodeBcrypt64(bytes: Uint8Array): string {
  return encodeRadix64(bytes, BCRYPT_ALPHABET, false);
}
