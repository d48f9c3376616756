/**
 * Secrets the library uses: `codeHmacKey` keys the hashes of verification codes (only their HMAC is
 * stored), `encryptionKey` is the AES-256-GCM key for TOTP secrets (32 bytes).
 */
export interface Keys {
  readonly keyId: string;
  readonly codeHmacKey: Uint8Array;
  readonly encryptionKey: Uint8Array;
}
