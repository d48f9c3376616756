/** How one kind of code is made: its length, alphabet and validity. */
export interface CodeSpec {
  readonly length: number;
  readonly alphabet: string;
  /** Validity in seconds. */
  readonly lifetimeSeconds: number;
}

export type CodeKind = "email" | "phone" | "init" | "passwordless";

/** What happens to new notifications right after the write. */
export type ImmediateDelivery = "await" | "background" | "off";

/** Host configuration; every member is optional and has a documented default. */
export interface HumanUsersConfig {
  /** Public base URL for links when the request context has no `origin`. Default `http://localhost:8080`. */
  readonly origin?: string;
  /** Link in verification mails when the request names none. Placeholders `{{.UserID}}`, `{{.Code}}`, `{{.OrgID}}`. */
  readonly emailVerificationUrlTemplate?: string;
  /** Link in initialization mails. */
  readonly initializationUrlTemplate?: string;
  readonly codes?: Partial<Readonly<Record<CodeKind, Partial<CodeSpec>>>>;
  /** ISO 3166-1 alpha-2 region for operation A phone numbers written without `+`. None: such numbers are refused. */
  readonly defaultPhoneRegion?: string;
  /** Default `"await"`: the operation resolves after the first delivery attempt (whose failure never fails it). */
  readonly immediateDelivery?: ImmediateDelivery;
}
