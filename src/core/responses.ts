import type { JsonObject } from "../shared/json.js";

/** `details` of a creation: the last event's sequence and time, and the owning organization. */
export interface CreationDetails {
  /** Decimal string (a 64-bit number in protobuf JSON). */
  readonly sequence: string;
  /** RFC 3339 UTC. */
  readonly changeDate: string;
  readonly resourceOwner: string;
}

/** Operation A's response body. */
export interface CreateHumanUserResponse {
  readonly userId: string;
  readonly details: CreationDetails;
  /** Only when `email.returnCode` was asked for. */
  readonly emailCode?: string;
  /** Only when `phone.returnCode` was asked for. */
  readonly phoneCode?: string;
}

export interface PasswordlessRegistration {
  readonly link: string;
  /** Protobuf JSON duration, e.g. `"3600s"`. */
  readonly lifetime: string;
  readonly expiration: string;
}

/** Operation B's response body. */
export interface ImportHumanUserResponse {
  readonly userId: string;
  readonly details: CreationDetails & { readonly creationDate: string };
  /** Only when `requestPasswordlessRegistration` was true. */
  readonly passwordlessRegistration?: PasswordlessRegistration;
}

/** `details` of a change to an existing user (the reference server's `zitadel.object.v2.Details`). */
export interface ChangeDetails {
  /** Decimal string: the user's last sequence after the change. */
  readonly sequence: string;
  /** RFC 3339 UTC. */
  readonly changeDate: string;
  readonly resourceOwner: string;
}

/** `checkPassword`'s response body. */
export interface CheckPasswordResponse {
  readonly userId: string;
  /** The user must choose a new password before going on (`setPassword`). */
  readonly passwordChangeRequired: boolean;
  readonly details: ChangeDetails;
}

export interface SetPasswordResponse {
  readonly details: ChangeDetails;
}

export interface PasswordResetResponse {
  readonly details: ChangeDetails;
  /** Only when `returnCode` was asked for. */
  readonly verificationCode?: string;
}

export interface UnlockUserResponse {
  readonly details: ChangeDetails;
}

/** A passwordless registration code: what `registerPasskey` takes as its proof. */
export interface PasskeyRegistrationCode {
  readonly id: string;
  readonly code: string;
}

export interface CreatePasskeyRegistrationLinkResponse {
  readonly details: ChangeDetails;
  /** Only when `returnCode` was asked for. */
  readonly code?: PasskeyRegistrationCode;
}

export interface RegisterPasskeyResponse {
  readonly details: ChangeDetails;
  readonly passkeyId: string;
  /** `{ publicKey: {...} }`: what the browser's `navigator.credentials.create` takes (challenge and ids base64url). */
  readonly publicKeyCredentialCreationOptions: JsonObject;
}

export interface VerifyPasskeyRegistrationResponse {
  readonly details: ChangeDetails;
}
