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

/** Bytes per String.fromCharCode call: well under every runtime's limit on arguments. */
const CHUNK = 8192;

/** URL-safe base64 alone (as WebAuthn's JSON writes bytes), padding optional; anything else gives undefined. */
export function decodeBase64Url(text: string): Uint8Array | undefined {
  return URL_SAFE.test(text.replace(/={1,2}$/, "")) ? decodeLenientBase64(text) : undefined;
}

/** Standard base64, with padding (as protobuf JSON writes bytes) unless `pad` is false. */
export function encodeBase64(bytes: Uint8Array, pad = true): string {
  // The runtime's btoa over a binary string: a fraction of the cost of building the text in JavaScript.
  let binary = "";
  for (let offset = 0; offset < bytes.length; offset += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(offset, offset + CHUNK) as unknown as number[]);
  }
  const encoded = btoa(binary);
  return pad ? encoded : encoded.replace(/=+$/, "");
}

/** URL-safe base64 without padding (RFC 4648 §5), as WebAuthn writes bytes in JSON. */
export function encodeBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes, false).replace(/\+/g, "-").replace(/\//g, "_");
}
