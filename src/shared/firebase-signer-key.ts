import { decodeLenientBase64 } from "./base64.js";

/**
 * A Firebase project's signer key as its console shows it (`base64_signer_key`), as bytes; undefined
 * when the text is not base64 or is empty. Read where the configuration is checked and where hashes are.
 */
export function firebaseSignerKeyBytes(key: unknown): Uint8Array | undefined {
  const bytes = typeof key === "string" ? decodeLenientBase64(key) : undefined;
  return bytes === undefined || bytes.length === 0 ? undefined : bytes;
}
