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

/** Standard base64 with padding, as protobuf JSON writes bytes. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
