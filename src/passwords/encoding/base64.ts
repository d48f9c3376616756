import { ADAPTED_ALPHABET, STANDARD_ALPHABET, decodeRadix64, encodeRadix64, type Padding } from "./radix64.js";

/** RFC 4648 base64, strict: canonical bits, `padding` says whether `=` may or must appear. */
export function decodeBase64(text: string, padding: Padding): Uint8Array | undefined {
  return decodeRadix64(text, STANDARD_ALPHABET, padding);
}

export { encodeBase64 } from "../../shared/base64.js";

/** passlib's adapted base64 (`.` for `+`, no padding). */
export function encodeAdaptedBase64(bytes: Uint8Array): string {
  return encodeRadix64(bytes, ADAPTED_ALPHABET, false);
}

/**
 * passlib's PBKDF2 fields: adapted base64, or standard base64 with optional padding as some
 * exporters write it. One alphabet per field: `.` and `+` together are refused.
 */
export function decodeAdaptedOrStandardBase64(text: string): Uint8Array | undefined {
  if (text.includes(".")) return text.includes("+") ? undefined : decodeRadix64(text, ADAPTED_ALPHABET, "forbidden");
  return decodeRadix64(text, STANDARD_ALPHABET, "optional");
}
