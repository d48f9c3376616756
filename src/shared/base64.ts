const STANDARD = /^[A-Za-z0-9+/]*$/;
const URL_SAFE = /^[A-Za-z0-9_-]*$/;

/**
 * Decodes standard or URL-safe base64, padding optional (but correct when present). Mixed
 * alphabets, stray characters and impossible lengths give undefined.
 */
export function decodeLenientBase64(text: string): Uint8Array | undefined {
  const unpadded = text.replace(/={1,2}$/, "");
  const padding = text.length - unpadded.length;
  if (padding > 0 && text.length % 4 !== 0) return undefined;
  if (unpadded.length % 4 === 1) return undefined;
  if (!STANDARD.test(unpadded) && !URL_SAFE.test(unpadded)) return undefined;
  const standard = unpadded.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(standard + "=".repeat((4 - (standard.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Standard base64, with padding (as protobuf JSON writes bytes) unless `pad` is false. */
export function encodeBase64(bytes: Uint8Array, pad = true): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += ALPHABET.charAt(n >>> 18) + ALPHABET.charAt((n >>> 12) & 63) + ALPHABET.charAt((n >>> 6) & 63) + ALPHABET.charAt(n & 63);
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = ((bytes[i] ?? 0) << 16) | (rest === 2 ? (bytes[i + 1] ?? 0) << 8 : 0);
    out += ALPHABET.charAt(n >>> 18) + ALPHABET.charAt((n >>> 12) & 63) + (rest === 2 ? ALPHABET.charAt((n >>> 6) & 63) : pad ? "=" : "") + (pad ? "=" : "");
  }
  return out;
}

/** URL-safe base64 without padding (RFC 4648 §5), as WebAuthn writes bytes in JSON. */
export function encodeBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes, false).replace(/\+/g, "-").replace(/\//g, "_");
}
