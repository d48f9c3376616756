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
