// Request bodies as TypeScript callers write them. At run time a request is `unknown` (a parsed
// JSON body) and every rule is checked; snake_case names are accepted too.
import type { Gender } from "./rules/gender.js";

type GenderValue = Gender | 0 | 1 | 2 | 3;

/** `createHumanUser`'s request body. */
export interface CreateHumanUserRequest {
  readonly userId?: string;
  readonly username?: string;
  readonly organization?: { readonly orgId: string } | { readonly orgDomain: string };
  readonly profile: {
    readonly givenName: string;
    readonly familyName: string;
    readonly nickName?: string;
    readonly displayName?: string;
    readonly preferredLanguage?: string;
    readonly gender?: GenderValue;
  };
  readonly email: {
    readonly email: string;
    readonly sendCode?: { readonly urlTemplate?: string };
    readonly returnCode?: Record<string, never>;
    readonly isVerified?: boolean;
  };
  readonly phone?: {
    readonly phone?: string;
    readonly sendCode?: Record<string, never>;
    readonly returnCode?: Record<string, never>;
    readonly isVerified?: boolean;
  };
  readonly metadata?: readonly { readonly key: string; readonly value: string }[];
  readonly password?: { readonly password: string; readonly changeRequired?: boolean };
  readonly hashedPassword?: { readonly hash: string; readonly changeRequired?: boolean };
  readonly idpLinks?: readonly { readonly idpId: string; readonly userId: string; readonly userName: string }[];
  readonly totpSecret?: string;
}

/** `importHumanUser`'s request body. */
export interface ImportHumanUserRequest {
  readonly userName?: string;
  readonly profile: {
    readonly firstName: string;
    readonly lastName: string;
    readonly nickName?: string;
    readonly displayName?: string;
    readonly preferredLanguage?: string;
    readonly gender?: GenderValue;
  };
  readonly email: { readonly email: string; readonly isEmailVerified?: boolean };
  readonly phone?: { readonly phone: string; readonly isPhoneVerified?: boolean };
  readonly password?: string;
  readonly hashedPassword?: { readonly value: string };
  readonly passwordChangeRequired?: boolean;
  readonly requestPasswordlessRegistration?: boolean;
  readonly idps?: readonly { readonly configId: string; readonly externalUserId: string; readonly displayName?: string }[];
}

/** `getUser`'s request (the v2 `GetUserByIDRequest`). */
export interface GetUserRequest {
  readonly userId: string;
}

/** `verifyEmail` and `verifyPhone` (the v2 `VerifyEmailRequest`, `VerifyPhoneRequest`). */
export interface VerifyCodeRequest {
  readonly userId: string;
  readonly verificationCode: string;
}

/** `resendEmailCode` (the v2 `ResendEmailCodeRequest`): sent (the default) or returned. */
export interface ResendEmailCodeRequest {
  readonly userId: string;
  readonly sendCode?: { readonly urlTemplate?: string };
  readonly returnCode?: Record<string, never>;
}

/** `resendPhoneCode` (the v2 `ResendPhoneCodeRequest`). */
export interface ResendPhoneCodeRequest {
  readonly userId: string;
  readonly sendCode?: Record<string, never>;
  readonly returnCode?: Record<string, never>;
}

/** `verifyInitCode`: the initialization code from `importHumanUser`'s mail, and optionally a first password. */
export interface VerifyInitCodeRequest {
  readonly userId: string;
  readonly verificationCode: string;
  readonly password?: string;
}

/** `resendInitialization` (the management `ResendHumanInitializationRequest`): `email` first changes the address. */
export interface ResendInitializationRequest {
  readonly userId: string;
  readonly email?: string;
}

type TextQueryMethod =
  | "TEXT_QUERY_METHOD_EQUALS"
  | "TEXT_QUERY_METHOD_EQUALS_IGNORE_CASE"
  | "TEXT_QUERY_METHOD_STARTS_WITH"
  | "TEXT_QUERY_METHOD_STARTS_WITH_IGNORE_CASE"
  | "TEXT_QUERY_METHOD_CONTAINS"
  | "TEXT_QUERY_METHOD_CONTAINS_IGNORE_CASE"
  | "TEXT_QUERY_METHOD_ENDS_WITH"
  | "TEXT_QUERY_METHOD_ENDS_WITH_IGNORE_CASE"
  | number;

/** One search query of `listUsers` (the v2 `SearchQuery`): exactly one member. */
export type UserSearchQuery =
  | { readonly userNameQuery: { readonly userName: string; readonly method?: TextQueryMethod } }
  | { readonly emailQuery: { readonly emailAddress: string; readonly method?: TextQueryMethod } }
  | { readonly loginNameQuery: { readonly loginName: string; readonly method?: TextQueryMethod } }
  | { readonly displayNameQuery: { readonly displayName: string; readonly method?: TextQueryMethod } }
  | { readonly organizationIdQuery: { readonly organizationId: string } }
  | { readonly stateQuery: { readonly state: string | number } }
  | { readonly typeQuery: { readonly type: string | number } }
  | { readonly inUserIdsQuery: { readonly userIds: readonly string[] } }
  | { readonly andQuery: { readonly queries: readonly UserSearchQuery[] } }
  | { readonly orQuery: { readonly queries: readonly UserSearchQuery[] } }
  | { readonly notQuery: { readonly query: UserSearchQuery } };

/** `listUsers`' request (the v2 `ListUsersRequest`). */
export interface ListUsersRequest {
  readonly query?: { readonly offset?: string | number; readonly limit?: number; readonly asc?: boolean };
  readonly sortingColumn?: string | number;
  readonly queries?: readonly UserSearchQuery[];
}

/** `checkPassword`'s request: the user by id or by login name, and the password to check. */
export type CheckPasswordRequest = ({ readonly userId: string; readonly loginName?: never } | { readonly loginName: string; readonly userId?: never }) & {
  readonly password: string;
};

/** ZITADEL's `SetPassword`: a proof (the current password or a reset code), or none with `user.write`. */
export interface SetPasswordRequest {
  readonly userId: string;
  readonly newPassword: { readonly password: string; readonly changeRequired?: boolean };
  readonly currentPassword?: string;
  readonly verificationCode?: string;
}

/** ZITADEL's `PasswordReset`: the code mailed (default) or returned. */
export interface PasswordResetRequest {
  readonly userId: string;
  readonly sendLink?: { readonly notificationType?: "NOTIFICATION_TYPE_Unspecified" | "NOTIFICATION_TYPE_Email"; readonly urlTemplate?: string };
  readonly returnCode?: Record<string, never>;
}

/** `unlockUser`'s request (the v2 `UnlockUserRequest`). */
export interface UnlockUserRequest {
  readonly userId: string;
}

/** ZITADEL's `CreatePasskeyRegistrationLink`: the link mailed (default) or the code returned. */
export interface CreatePasskeyRegistrationLinkRequest {
  readonly userId: string;
  readonly sendLink?: { readonly urlTemplate?: string };
  readonly returnCode?: Record<string, never>;
}

/** Which kind of authenticator `registerPasskey` asks the browser for. */
export type PasskeyAuthenticator = "PASSKEY_AUTHENTICATOR_UNSPECIFIED" | "PASSKEY_AUTHENTICATOR_PLATFORM" | "PASSKEY_AUTHENTICATOR_CROSS_PLATFORM";

/** ZITADEL's `RegisterPasskey`: with the code of a registration link as the proof, or by a requester allowed to write the user. */
export interface RegisterPasskeyRequest {
  readonly userId: string;
  readonly code?: { readonly id: string; readonly code: string };
  readonly authenticator?: PasskeyAuthenticator | 0 | 1 | 2;
  /** The relying party id; when given, it must be the configured one. */
  readonly domain?: string;
}

/** ZITADEL's `VerifyPasskeyRegistration`: the browser's credential for the options `registerPasskey` gave. */
export interface VerifyPasskeyRegistrationRequest {
  readonly userId: string;
  readonly passkeyId: string;
  readonly publicKeyCredential: Readonly<Record<string, unknown>>;
  readonly passkeyName: string;
}
