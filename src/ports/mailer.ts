/** What a mail is for. */
export type MailKind = "email.verification" | "email.initialization" | "email.password_reset" | "email.passkey_registration";

/** One rendered mail, with the values it was rendered from. */
export interface MailMessage {
  /** Stable per notification: a retried delivery carries the same id, so a mailer can drop duplicates. */
  readonly id: string;
  readonly kind: MailKind;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** The code and link the message carries, for mailers and tests that need them as data. */
  readonly code: string;
  readonly link: string;
  readonly userId: string;
  readonly orgId: string;
}

/** The mail port: hands rendered mails to whatever sends them (`memoryMailer`, `smtpMailer`, your own). */
export interface Mailer {
  /** Resolves once the message is accepted for delivery; rejects (or throws) when it is not. */
  send(message: MailMessage): Promise<void>;
}

/**
 * Thrown (rejected) by a mailer that cannot send any mail until the host changes its set-up: a
 * package that is not installed, no transport configured. Delivery retries it like any failure
 * and warns the host once, on its logger or else the console.
 */
export class MailerSetupError extends Error {
  override readonly name = "MailerSetupError";
}

/**
 * Thrown (rejected) by a mailer or SMS sender when this message can never be delivered as it is:
 * the server refused its recipient or its content for good (an SMTP 5xx reply to RCPT TO or
 * DATA). Delivery makes the message dead at once instead of sending it again.
 */
export class PermanentDeliveryError extends Error {
  override readonly name = "PermanentDeliveryError";
}
