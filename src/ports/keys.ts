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
 * holds the keys a rotation retired, so that what was written under them still checks. To rotate:
 * make a new key set under a new `keyId`, and move the current one into `previous` until the
 * longest code lifetime (72 h for init codes by default) has passed; keep it there as long as TOTP
 * secrets sealed under it are stored. Every key id appears once. `keysFromEnvironment` reads them
 * from HUMAN_USERS_KEY_ID, HUMAN_USERS_CODE_HMAC_KEY, HUMAN_USERS_ENCRYPTION_KEY and
 * HUMAN_USERS_PREVIOUS_KEYS.
 */
export interface Keys extends KeySet {
  readonly previous?: readonly KeySet[];
}
