import type { ProfileDraft } from "../user-draft.js";
import type { HashedCode } from "../events/user-events.js";

/** ZITADEL's user states, by their v2 names. */
export type UserLifecycle = "USER_STATE_INITIAL" | "USER_STATE_ACTIVE" | "USER_STATE_LOCKED";

/** A code waiting to be redeemed: only its keyed hash is known. */
export interface PendingCode {
  readonly hash: HashedCode;
  /** RFC 3339. */
  readonly issuedAt: string;
  /** RFC 3339: the code's own expiry, from its validity. */
  readonly expiresAt: string;
  /** Wrong attempts against this code so far. */
  readonly failedAttempts: number;
  readonly returned: boolean;
}

/** The profile, as a creation's validated draft has it. */
export type ProfileState = ProfileDraft;

/** The user's email address and whether it is verified, with the pending code. */
export interface EmailState {
  readonly address: string;
  readonly verified: boolean;
  readonly code?: PendingCode;
}

/** The user's phone number (E.164) and whether it is verified, with the pending code. */
export interface PhoneState {
  /** E.164. */
  readonly number: string;
  readonly verified: boolean;
  readonly code?: PendingCode;
}

/** The user's password: only its hash, in its encoded form. */
export interface PasswordState {
  readonly encodedHash: string;
  readonly changeRequired: boolean;
  /** RFC 3339: when it was set (at creation or later). */
  readonly changedAt: string;
}

/** A link to an account at an identity provider. */
export interface IdpLinkState {
  readonly idpId: string;
  readonly externalUserId: string;
  readonly displayName?: string;
}

/** A registered credential, as its verified attestation gave it. */
export interface PasskeyCredential {
  /** base64url. */
  readonly id: string;
  /** The COSE public key, base64. */
  readonly publicKey: string;
  readonly signCount: number;
  readonly aaguid: string;
  readonly attestationType: string;
  readonly userVerified: boolean;
  readonly backedUp: boolean;
}

/** A passkey: begun (a challenge waiting for its attestation), or registered (with its credential). */
export interface PasskeyState {
  readonly id: string;
  readonly rpId: string;
  /** base64url; the one the attestation must have signed. */
  readonly challenge: string;
  /** RFC 3339: when the registration was begun. */
  readonly startedAt: string;
  /** The registration code it was begun with, redeemed on verification. */
  readonly codeId?: string;
  /** Set once the registration is verified. */
  readonly name?: string;
  readonly credential?: PasskeyCredential;
}

/** One user, as its events say it is now. */
export interface UserState {
  readonly userId: string;
  readonly orgId: string;
  /** The last event's sequence: what the next append expects. */
  readonly sequence: number;
  readonly createdAt: string;
  readonly changedAt: string;
  readonly lifecycle: UserLifecycle;
  readonly username: string;
  readonly profile: ProfileState;
  readonly email: EmailState;
  readonly phone?: PhoneState;
  readonly password?: PasswordState;
  /** Password checks failed in a row, for the lockout policy. */
  readonly failedPasswordChecks: number;
  readonly initCode?: PendingCode;
  readonly passwordResetCode?: PendingCode;
  /** Passwordless registration codes by their id. */
  readonly passwordlessCodes: Readonly<Record<string, PendingCode>>;
  /** Passkeys by their id, begun or registered. */
  readonly passkeys: Readonly<Record<string, PasskeyState>>;
  readonly idpLinks: readonly IdpLinkState[];
  readonly totp?: { readonly secret: { readonly algorithm: string; readonly keyId: string; readonly crypted: string }; readonly verified: boolean };
  /** Base64 values by key. */
  readonly metadata: Readonly<Record<string, string>>;
  /** The fingerprint of the request it was imported with (see `importFingerprint`); absent when it was not imported. */
  readonly importFingerprint?: string;
}
