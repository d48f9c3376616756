export { concatBytes, utf8 } from "../../shared/bytes.js";

/** ASCII/Latin-1 text as the bytes the hash format stores it as (salts kept as text). */
export function latin1(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff);
}

export function randomBytes(length: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}
