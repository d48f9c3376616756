// Every event a user's stream can hold, declared once: its name (as ZITADEL writes
// it) and its payload. The writer (`sequenceEvents`) and the fold (`foldUser`) both use this map.
import type { StoredEvent } from "../../ports/user-log.js";
import { deepFreeze } from "../../shared/deep-freeze.js";
import type { Gender } from "../rules/gender.js";

/** A code as it is kept: its keyed hash, never the code. */
export type HashedCode = { readonly algorithm: string; readonly keyId: string; readonly hash: string };

/** A code issued to the user: its keyed hash and its validity (`"3600s"`). */
export type CodeAdded = {
  readonly code: HashedCode;
  readonly expiry: string;
  /** The code went back to the caller in the response instead of into a message. */
  readonly codeReturned?: boolean;
};

export type HumanAdded = {
  readonly userName: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly nickName?: string;
  readonly displayName: string;
  readonly preferredLanguage: string;
  readonly gender: Gender;
  readonly email: string;
  readonly phone?: string;
  readonly encodedHash?: string;
  readonly changeRequired?: boolean;
  /**
   * Set by an import (see `importFingerprint`): what a later bulk import compares to tell the same
   * user from another. Absent in users created otherwise and in events written before it existed.
   */
  readonly importFingerprint?: string;
};

export type Empty = Readonly<Record<string, never>>;

/** A passkey registration begun: the challenge the authenticator must sign, for the relying party. */
export type PasskeyAdded = {
  readonly webAuthNTokenId: string;
  /** base64url, as sent to the browser; a challenge is no secret, it only must not be used twice. */
  readonly challenge: string;
  readonly rpID: string;
  /** The passwordless registration code the registration was begun with; redeemed when it is verified. */
  readonly codeId?: string;
};

/** A passkey registration completed: the credential as the attestation gave it. */
export type PasskeyVerified = {
  readonly webAuthNTokenId: string;
  /** The credential id, base64url. */
  readonly keyId: string;
  /** The COSE public key, base64. */
  readonly publicKey: string;
  readonly attestationType: string;
  readonly aaguid: string;
  readonly signCount: number;
  readonly webAuthNTokenName: string;
  readonly rpID: string;
  readonly userVerified: boolean;
  readonly backedUp: boolean;
};

/** Every user event type with its payload: what a user's stream can hold. */
export interface UserEventPayloads {
  "user.human.added": HumanAdded;
  "user.human.email.changed": { readonly email: string };
  "user.human.email.code.added": CodeAdded;
  "user.human.email.verification.failed": Empty;
  "user.human.email.verified": Empty;
  "user.human.phone.code.added": CodeAdded;
  "user.human.phone.verification.failed": Empty;
  "user.human.phone.verified": Empty;
  "user.human.initialization.code.added": CodeAdded;
  "user.human.initialization.check.failed": Empty;
  "user.human.initialization.check.succeeded": Empty;
  "user.metadata.set": { readonly key: string; readonly value: string };
  "user.human.externalidp.added": { readonly idpConfigId: string; readonly userId: string; readonly displayName?: string };
  "user.human.mfa.otp.added": { readonly secret: { readonly algorithm: string; readonly keyId: string; readonly crypted: string } };
  "user.human.mfa.otp.verified": Empty;
  "user.human.passwordless.initialization.code.added": CodeAdded & { readonly id: string };
  "user.human.passwordless.initialization.code.check.failed": { readonly id: string };
  "user.human.passwordless.initialization.code.check.succeeded": { readonly id: string };
  "user.human.passwordless.token.added": PasskeyAdded;
  "user.human.passwordless.token.verified": PasskeyVerified;
  "user.human.password.changed": { readonly encodedHash: string; readonly changeRequired: boolean };
  "user.human.password.hash.updated": { readonly encodedHash: string };
  "user.human.password.check.succeeded": Empty;
  "user.human.password.check.failed": Empty;
  "user.human.password.code.added": CodeAdded;
  "user.human.password.code.check.failed": Empty;
  "user.locked": Empty;
  "user.unlocked": Empty;
}

/** The name of a user event (`user.human.added`, ...). */
export type UserEventType = keyof UserEventPayloads;

/** An event before it has a place in the user's stream. */
export type UserEventDraft = { readonly [K in UserEventType]: { readonly type: K; readonly payload: UserEventPayloads[K] } }[UserEventType];

/**
 * Numbers one decision's events after the stream's last sequence `after` (0 for a new user) and
 * stamps them with the decision's time. Events are facts: they are frozen whole when made (their
 * payloads too), so that a store may keep them as they are.
 */
export function sequenceEvents(drafts: readonly UserEventDraft[], userId: string, orgId: string, createdAt: string, after = 0): StoredEvent[] {
  return drafts.map((draft, index) =>
    deepFreeze({
      type: draft.type,
      aggregateId: userId,
      orgId,
      sequence: after + index + 1,
      createdAt,
      payload: draft.payload,
    }),
  );
}
