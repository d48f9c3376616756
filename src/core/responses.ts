import type { JsonObject } from "../shared/json.js";

/** `details` of a creation: the last event's sequence and time, and the owning organization. */
export interface CreationDetails {
  /** Decimal string (a 64-bit number in protobuf JSON). */
  readonly sequence: string;
  /** RFC 3339 UTC. */
  readonly changeDate: string;
  readonly resourceOwner: string;
}

/** `createHumanUser`'s response body. */
export interface CreateHumanUserResponse {
  readonly userId: string;
  readonly details: CreationDetails;
  /** Only when `email.returnCode` was asked for. */
  readonly emailCode?: string;
  /** Only when `phone.returnCode` was asked for. */
  readonly phoneCode?: string;
}

/** The passwordless registration link `importHumanUser` returns when asked for one. */
export interface PasswordlessRegistration {
  readonly link: string;
  /** Protobuf JSON duration, e.g. `"3600s"`. */
  readonly lifetime: string;
  readonly expiration: string;
}

/** `importHumanUser`'s response body. */
export interface ImportHumanUserResponse {
  readonly userId: string;
  readonly details: CreationDetails & { readonly creationDate: string };
  /** Only when `requestPasswordlessRegistration` was true. */
  readonly passwordlessRegistration?: PasswordlessRegistration;
}

/** `details` of a change to an existing user. */
export type ChangeDetails = CreationDetails;

/** `details` of a read: the user's last change, and when the user was created (as ZITADEL's reads give it). */
export interface ReadDetails extends ChangeDetails {
  /** RFC 3339 UTC. */
  readonly creationDate: string;
}

/** `verifyEmail`, `verifyPhone`, `verifyInitCode` and `resendInitialization` answer only the change's details. */
export interface ChangeResponse {
  readonly details: ChangeDetails;
}

/** `resendEmailCode` and `resendPhoneCode`: the details, and the code when `returnCode` asked for it. */
export interface ResendCodeResponse {
  readonly details: ChangeDetails;
  readonly verificationCode?: string;
}

/** The v2 `UserState` names a user of this library can have. */
export type UserStateName = "USER_STATE_INITIAL" | "USER_STATE_ACTIVE" | "USER_STATE_LOCKED";

/**
 * The v2 `HumanProfile`. `nickName` is always there, `""` when the user has none: ZITADEL sets the
 * optional field whatever its value, and protobuf JSON writes a set optional field.
 */
export interface HumanProfile {
  readonly givenName: string;
  readonly familyName: string;
  readonly nickName: string;
  readonly displayName?: string;
  readonly preferredLanguage?: string;
  readonly gender: "GENDER_UNSPECIFIED" | "GENDER_FEMALE" | "GENDER_MALE" | "GENDER_DIVERSE";
}

/** The v2 `HumanUser` part of a user; `isVerified`, `passwordChangeRequired` are left out when false. */
export interface HumanUser {
  readonly profile: HumanProfile;
  readonly email: { readonly email: string; readonly isVerified?: true };
  /** Always there, as ZITADEL always sets the message: `{}` when the user has no phone number. */
  readonly phone: { readonly phone?: string; readonly isVerified?: true };
  readonly passwordChangeRequired?: true;
  /** RFC 3339: when the password was last set; absent when the user has none. */
  readonly passwordChanged?: string;
}

/** The v2 `User`. */
export interface User {
  readonly userId: string;
  readonly details: ReadDetails;
  readonly state: UserStateName;
  readonly username: string;
  /** The username alone, or `username@domain` for each verified domain (`userLoginMustBeDomain`); left out when empty. */
  readonly loginNames?: readonly string[];
  readonly preferredLoginName?: string;
  readonly human: HumanUser;
}

/** `getUser`'s response: the v2 `GetUserByIDResponse`. */
export interface GetUserResponse {
  readonly details: ReadDetails;
  readonly user: User;
}

/** The v2 `UserFieldName` values `listUsers` sorts by. */
export type UserFieldName =
  | "USER_FIELD_NAME_UNSPECIFIED"
  | "USER_FIELD_NAME_USER_NAME"
  | "USER_FIELD_NAME_FIRST_NAME"
  | "USER_FIELD_NAME_LAST_NAME"
  | "USER_FIELD_NAME_NICK_NAME"
  | "USER_FIELD_NAME_DISPLAY_NAME"
  | "USER_FIELD_NAME_EMAIL"
  | "USER_FIELD_NAME_STATE"
  | "USER_FIELD_NAME_TYPE"
  | "USER_FIELD_NAME_CREATION_DATE";

/** `listUsers`' response: the v2 `ListUsersResponse`, zero and empty members left out as protobuf JSON does. */
export interface ListUsersResponse {
  readonly details: {
    /** Decimal string: every user the queries find, whatever the page. */
    readonly totalResult?: string;
    /** RFC 3339: the clock's time of the read (the listings are current with every answered write). */
    readonly timestamp: string;
  };
  readonly result?: readonly User[];
}

/** `checkPassword`'s response body. */
export interface CheckPasswordResponse {
  readonly userId: string;
  /** The user must choose a new password before going on (`setPassword`); left out when not. */
  readonly passwordChangeRequired?: true;
  readonly details: ChangeDetails;
}

/** `setPassword` answers the change's details. */
export type SetPasswordResponse = ChangeResponse;

/** `passwordReset`'s answer. */
export interface PasswordResetResponse {
  readonly details: ChangeDetails;
  /** Only when `returnCode` was asked for. */
  readonly verificationCode?: string;
}

/** `unlockUser` answers the change's details. */
export type UnlockUserResponse = ChangeResponse;

/** A passwordless registration code: what `registerPasskey` takes as its proof. */
export interface PasskeyRegistrationCode {
  readonly id: string;
  readonly code: string;
}

/** `createPasskeyRegistrationLink`'s answer. */
export interface CreatePasskeyRegistrationLinkResponse {
  readonly details: ChangeDetails;
  /** Only when `returnCode` was asked for. */
  readonly code?: PasskeyRegistrationCode;
}

/** `registerPasskey`'s answer: the options the browser creates the credential from. */
export interface RegisterPasskeyResponse {
  readonly details: ChangeDetails;
  readonly passkeyId: string;
  /** `{ publicKey: {...} }`: what the browser's `navigator.credentials.create` takes (challenge and ids base64url). */
  readonly publicKeyCredentialCreationOptions: JsonObject;
}

/** `verifyPasskeyRegistration` answers the change's details. */
export type VerifyPasskeyRegistrationResponse = ChangeResponse;
