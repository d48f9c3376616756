/** One generation of keys, named by `keyId`, which every hashed code and sealed secret records. */
export interface KeySet {
  readonly keyId: string;
  /** Keys the hashes of verification codes (only their HMAC is stored); 32 bytes or more. */
  readonly codeHmacKey: Uint8Array;
  /** The AES-256-GCM key for TOTP secrets: 32 bytes. */
  readonly encryptionKey: Uint8Array;
}

/**
 * Secrets the library uses. New codes and secrets are written with the current keys; `previous`
 * holds the keys a rotation retired, so that what was written under them still checks.
 */
export interface Keys extends KeySet {
  readonly previous?: readonly KeySet[];
}
