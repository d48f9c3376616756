// Request bodies as TypeScript callers write them. At run time a request is `unknown` (a parsed
// JSON body) and every rule is checked; snake_case names are accepted too.
import type { Gender } from "./rules/gender.js";

type GenderValue = Gender | 0 | 1 | 2 | 3;

/** Operation A's request body. */
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

/** Operation B's request body. */
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

/** `checkPassword`'s request: the user by id or by login name, and the password to check. */
export type CheckPasswordRequest = ({ readonly userId: string; readonly loginName?: never } | { readonly loginName: string; readonly userId?: never }) & {
  readonly password: string;
};

/** The reference server's `SetPassword`: a proof (the current password or a reset code), or none with `user.write`. */
export interface SetPasswordRequest {
  readonly userId: string;
  readonly newPassword: { readonly password: string; readonly changeRequired?: boolean };
  readonly currentPassword?: string;
  readonly verificationCode?: string;
}

/** The reference server's `PasswordReset`: the code mailed (default) or returned. */
export interface PasswordResetRequest {
  readonly userId: string;
  readonly sendLink?: { readonly notificationType?: "NOTIFICATION_TYPE_Unspecified" | "NOTIFICATION_TYPE_Email"; readonly urlTemplate?: string };
  readonly returnCode?: Record<string, never>;
}

export interface UnlockUserRequest {
  readonly userId: string;
}

/** The reference server's `CreatePasskeyRegistrationLink`: the link mailed (default) or the code returned. */
export interface CreatePasskeyRegistrationLinkRequest {
  readonly userId: string;
  readonly sendLink?: { readonly urlTemplate?: string };
  readonly returnCode?: Record<string, never>;
}

export type PasskeyAuthenticator = "PASSKEY_AUTHENTICATOR_UNSPECIFIED" | "PASSKEY_AUTHENTICATOR_PLATFORM" | "PASSKEY_AUTHENTICATOR_CROSS_PLATFORM";

/** The reference server's `RegisterPasskey`: with the code of a registration link as the proof, or by a requester allowed to write the user. */
export interface RegisterPasskeyRequest {
  readonly userId: string;
  readonly code?: { readonly id: string; readonly code: string };
  readonly authenticator?: PasskeyAuthenticator | 0 | 1 | 2;
  /** The relying party id; when given, it must be the configured one. */
  readonly domain?: string;
}

/** The reference server's `VerifyPasskeyRegistration`: the browser's credential for the options `registerPasskey` gave. */
export interface VerifyPasskeyRegistrationRequest {
  readonly userId: string;
  readonly passkeyId: string;
  readonly publicKeyCredential: Readonly<Record<string, unknown>>;
  readonly passkeyName: string;
}
