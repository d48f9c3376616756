import type { Gender } from "./rules/gender.js";
import type { UrlTemplate } from "./rules/url-template.js";

/** How a channel's code reaches the user: mailed or texted, returned in the body, or not made (verified). */
export type CodeDelivery = "send" | "return" | "none";

export interface ProfileDraft {
  readonly givenName: string;
  readonly familyName: string;
  readonly nickName: string;
  /** `givenName familyName` when the request left it blank. */
  readonly displayName: string;
  /** Canonical BCP 47, `und` when absent or unparsable. */
  readonly preferredLanguage: string;
  readonly gender: Gender;
}

export interface EmailDraft {
  readonly address: string;
  readonly verified: boolean;
  readonly codeDelivery: CodeDelivery;
  readonly urlTemplate?: UrlTemplate;
}

export interface PhoneDraft {
  /** E.164. */
  readonly number: string;
  readonly verified: boolean;
  readonly codeDelivery: CodeDelivery;
}

export type PasswordDraft =
  | { readonly kind: "plain"; readonly plain: string; readonly changeRequired: boolean }
  | { readonly kind: "hashed"; readonly encoded: string; readonly changeRequired: boolean };

export interface IdpLinkDraft {
  readonly idpId: string;
  readonly externalUserId: string;
  readonly displayName: string;
}

export interface MetadataDraft {
  readonly key: string;
  readonly value: Uint8Array;
}

/** A validated, normalized request of either operation: the one model every rule after validation reads. */
export interface UserDraft {
  readonly userId?: string;
  readonly username: string;
  readonly profile: ProfileDraft;
  readonly email: EmailDraft;
  readonly phone?: PhoneDraft;
  /** One entry per key, the last value given for it. */
  readonly metadata: readonly MetadataDraft[];
  readonly password?: PasswordDraft;
  readonly idpLinks: readonly IdpLinkDraft[];
  readonly totpSecret?: Uint8Array;
  readonly passwordlessRegistration: boolean;
}

/** A draft while a parser fills it in: its optional members are set only when present (never to undefined). */
export type DraftInProgress = { -readonly [K in keyof UserDraft]: UserDraft[K] };
