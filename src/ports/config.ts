/** How one kind of code is made: its length, alphabet and validity. */
export interface CodeSpec {
  /** Characters in a code: a whole number from 1 to 64. */
  readonly length: number;
  /** 2 to 256 distinct characters (one random byte picks one, without modulo bias). */
  readonly alphabet: string;
  /** Validity in seconds: a whole number from 1 to ten years. */
  readonly lifetimeSeconds: number;
}

/** Which code a `CodeSpec` in `config.codes` is for. */
export type CodeKind = "email" | "phone" | "init" | "passwordless" | "passwordReset";

/** What happens to new notifications right after the write. */
export type ImmediateDelivery = "await" | "background" | "off";

/**
 * Host configuration; every member is optional and has a documented default. A value the library
 * cannot honour is not replaced by a default: every operation answers 9 naming it, and
 * `checkConfiguration(ports)` reports it at start-up.
 */
export interface HumanUsersConfig {
  /**
   * Public base URL for links when the request context has no `origin`: an absolute http or
   * https URL without query, fragment or braces. Default `http://localhost:8080`.
   */
  readonly origin?: string;
  /** Link in verification mails when the request names none. Placeholders `{{.UserID}}`, `{{.Code}}`, `{{.OrgID}}`. */
  readonly emailVerificationUrlTemplate?: string;
  /** Link in initialization mails. */
  readonly initializationUrlTemplate?: string;
  /** Link in password reset mails when the request names none. Placeholders `{{.UserID}}`, `{{.Code}}`, `{{.OrgID}}`. */
  readonly passwordResetUrlTemplate?: string;
  /** Link in passkey registration mails when the request names none; `{{.CodeID}}` too. */
  readonly passkeyRegistrationUrlTemplate?: string;
  /** The WebAuthn relying party passkeys are registered with; without it, passkey registration answers 9. */
  readonly passkeys?: PasskeySettings;
  readonly codes?: Partial<Readonly<Record<CodeKind, Partial<CodeSpec>>>>;
  /** ISO 3166-1 alpha-2 region for `createHumanUser` phone numbers written without `+`. None: such numbers are refused. */
  readonly defaultPhoneRegion?: string;
  /** Default `"await"`: the operation resolves after the first delivery attempt (whose failure never fails it). */
  readonly immediateDelivery?: ImmediateDelivery;
  /**
   * How often an operation decides and appends again when another request changed the same user
   * first (or a generated user id was taken), before it answers 10 (aborted). A whole number from
   * 1 to 100; default 5.
   */
  readonly appendAttempts?: number;
  /**
   * With a durable store (`storage.durable`: PostgreSQL, PGlite) and no `ports.keys`, every
   * operation answers 9: codes written with keys made for one process cannot be checked after a
   * restart. `true` accepts that (demos, throwaway databases). Default false.
   */
  readonly allowThrowawayKeys?: boolean;
  /**
   * How long an organization, domain or identity-provider lookup is used again, in seconds.
   * Default 5: a deleted organization or an unverified domain is seen within that. 0 turns it off.
   */
  readonly directoryCacheSeconds?: number;
  /** Replacement or additional message templates, by language. */
  readonly messages?: MessageTemplates;
  readonly delivery?: DeliverySettings;
  /** Bounds on one request, so that refusing a hostile one costs little. */
  readonly limits?: RequestLimits;
}

/**
 * How much of one request is read and reported. Each member is a whole number of at least 1
 * (anything else fails the configuration check: code 9). The list limits are at most 10,000 (a
 * larger value counts as 10,000): a longer list is refused before any of its entries is read.
 */
export interface RequestLimits {
  /** Entries in `createHumanUser`'s `metadata`. A longer list is one violation, its entries unchecked. Default 1000. */
  readonly maxMetadataEntries?: number;
  /** Identity-provider links: `idpLinks` (`createHumanUser`), `idps` (`importHumanUser`). Default 1000. */
  readonly maxIdentityProviderLinks?: number;
  /** Field violations listed in one error body; validation stops once more are found. Default 100. */
  readonly maxFieldViolations?: number;
}

/** The WebAuthn relying party: who passkeys are registered for, and the pages allowed to register them. */
export interface PasskeySettings {
  /** The relying party id: the host's registrable domain (`example.com`). */
  readonly rpId: string;
  /** The name authenticators show (`Example`). */
  readonly rpName: string;
  /** Every origin a registration may come from (`https://login.example.com`). */
  readonly origins: readonly string[];
  /** How long a started registration may take before it is refused. Default 300. */
  readonly timeoutSeconds?: number;
}

/** One mail in one language. Placeholders: see `MessageValues`; HTML gets every value escaped. */
export interface MailTemplate {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** One SMS in one language. */
export interface SmsTemplate {
  readonly text: string;
}

/** The messages of one language; a kind left out falls back to the next language that has it. */
export interface LanguageMessages {
  readonly "email.verification"?: MailTemplate;
  readonly "email.initialization"?: MailTemplate;
  readonly "email.password_reset"?: MailTemplate;
  readonly "email.passkey_registration"?: MailTemplate;
  readonly "phone.verification"?: SmsTemplate;
}

/**
 * Message templates by BCP 47 language tag (`"en"`, `"de"`, `"de-CH"`; case ignored). Entries
 * replace the built-in ones of the same tag and kind; new tags add languages.
 */
export type MessageTemplates = Readonly<Record<string, LanguageMessages>>;

/** How the outbox retries. Every member optional; defaults in docs/mail.md. Counts are whole numbers, 1 or more; seconds are above 0. */
export interface DeliverySettings {
  /** Attempts before a notification is dead. Default 10. */
  readonly maxAttempts?: number;
  /** Delay after the first failure, doubled after each further one. Default 30. */
  readonly initialBackoffSeconds?: number;
  /** The delay never grows beyond this. Default 3600. */
  readonly maxBackoffSeconds?: number;
  /** How long a leased notification stays hidden from other workers. Default 300. */
  readonly leaseSeconds?: number;
  /**
   * How long one `mailer.send` or `sms.send` may take before the attempt counts as failed (and is
   * retried; a late success means the message goes twice). Below `leaseSeconds`, or the check
   * answers 9. Default 60, or half the lease when the lease is shorter than 120.
   */
  readonly sendTimeoutSeconds?: number;
  /** Notifications leased per round. Default 50. */
  readonly batchSize?: number;
  /** Messages handed over at the same time within a round. Default 4. */
  readonly concurrency?: number;
}
