import { MailerSetupError, type MailMessage, type Mailer } from "../../ports/mailer.js";
import { notificationMessageId, senderDomain } from "./message-id.js";

/** What this mailer hands to the transporter: a subset of nodemailer's message options. */
export interface SmtpMail {
  readonly from: string;
  readonly to: string;
  readonly replyTo?: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly messageId: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The part of a nodemailer transporter this mailer uses, so that any compatible object will do. */
export interface SmtpTransporter {
  /** Hands one mail to the SMTP server (nodemailer's `sendMail`). */
  sendMail(mail: SmtpMail): Promise<unknown>;
  /** Closes the transporter's connections. */
  close?(): void;
}

/** Connection settings handed to nodemailer's `createTransport` (its SMTP options; see its documentation). */
export interface SmtpConnectionOptions {
  readonly host?: string;
  readonly port?: number;
  /** TLS from the start (port 465); otherwise STARTTLS when the server offers it. */
  readonly secure?: boolean;
  readonly requireTLS?: boolean;
  readonly ignoreTLS?: boolean;
  readonly auth?: { readonly user: string; readonly pass: string };
  readonly tls?: { readonly rejectUnauthorized?: boolean; readonly servername?: string };
  readonly pool?: boolean;
  readonly maxConnections?: number;
  readonly connectionTimeout?: number;
  readonly greetingTimeout?: number;
  readonly socketTimeout?: number;
  /** The host name this client announces in EHLO. */
  readonly name?: string;
}

/** The sender and Message-ID settings of `smtpMailer`. */
export interface SmtpMailerOptions {
  /** The sender, `address` or `Name <address>`. */
  readonly from: string;
  readonly replyTo?: string;
  /** Domain of the Message-IDs. Default: the domain of `from`. */
  readonly messageIdDomain?: string;
}

/** A `Mailer` over SMTP, with a way to close the connections it opened. */
export interface SmtpMailer extends Mailer {
  /** Closes the connections of a transporter this mailer created; one passed in is left to its owner. */
  close(): void;
}

function isTransporter(value: unknown): value is SmtpTransporter {
  return typeof value === "object" && value !== null && typeof (value as { sendMail?: unknown }).sendMail === "function";
}

/** nodemailer is a peer dependency, loaded on first use so the package works without it elsewhere. */
async function createNodemailerTransport(connection: SmtpConnectionOptions | string): Promise<SmtpTransporter> {
  let nodemailer: typeof import("nodemailer");
  try {
    nodemailer = await import("nodemailer");
  } catch (cause) {
    throw new MailerSetupError("smtpMailer needs the nodemailer package: npm install nodemailer", { cause });
  }
  let transport: unknown;
  try {
    transport = nodemailer.createTransport(connection);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new MailerSetupError(`nodemailer could not make a transport from the connection settings: ${reason}`, { cause });
  }
  if (!isTransporter(transport)) throw new MailerSetupError("nodemailer.createTransport returned no transporter");
  return transport;
}

/** Addresses the server refused; nodemailer resolves when only some recipients are refused. */
function refusedRecipients(info: unknown): readonly unknown[] {
  const rejected = typeof info === "object" && info !== null ? (info as { rejected?: unknown }).rejected : undefined;
  return Array.isArray(rejected) ? rejected : [];
}

/**
 * A mailer that sends through SMTP with nodemailer. `transport` is a nodemailer transporter (or
 * anything with its `sendMail`), or the connection options or URL to make one with. Every mail of
 * one notification carries the same Message-ID, derived from the notification id.
 */
export function smtpMailer(transport: SmtpTransporter | SmtpConnectionOptions | string, options: SmtpMailerOptions): SmtpMailer {
  const domain = options.messageIdDomain ?? senderDomain(options.from) ?? "human-users.invalid";
  // A transporter the host passed in (and owns), or the settings to make one from on first use.
  const source: { readonly given: SmtpTransporter } | { readonly connection: SmtpConnectionOptions | string } =
    isTransporter(transport) ? { given: transport } : { connection: transport };
  let made: Promise<SmtpTransporter> | undefined;

  function connect(): Promise<SmtpTransporter> {
    if ("given" in source) return Promise.resolve(source.given);
    if (made === undefined) {
      const attempt = createNodemailerTransport(source.connection);
      // A failed load is tried again on the next send rather than remembered.
      attempt.catch(() => {
        if (made === attempt) made = undefined;
      });
      made = attempt;
    }
    return made;
  }

  async function send(message: MailMessage): Promise<void> {
    const mail: SmtpMail = {
      from: options.from,
      to: message.to,
      ...(options.replyTo === undefined ? {} : { replyTo: options.replyTo }),
      subject: message.subject,
      text: message.text,
      html: message.html,
      messageId: notificationMessageId(message.id, domain),
      headers: { "X-Human-Users-Notification-Kind": message.kind },
    };
    const info = await (await connect()).sendMail(mail);
    const refused = refusedRecipients(info);
    if (refused.length > 0) throw new Error(`the SMTP server refused ${refused.length} recipient(s)`);
  }

  return {
    send,
    close: () => {
      const closing = made;
      made = undefined;
      void closing?.then((transporter) => transporter.close?.(), () => undefined);
    },
  };
}
