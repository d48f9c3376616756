import type { ConnectionOptions } from "node:tls";
import { MailerSetupError, PermanentDeliveryError, type MailMessage, type Mailer } from "../../ports/mailer.js";
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
  /** A password, or OAuth2 (nodemailer's `type: "OAuth2"` with an access token, or what it needs to get one). */
  readonly auth?:
    | { readonly user: string; readonly pass: string }
    | {
        readonly type: "OAuth2";
        readonly user: string;
        readonly accessToken?: string;
        readonly refreshToken?: string;
        readonly clientId?: string;
        readonly clientSecret?: string;
        readonly expires?: number;
      };
  /** Node's TLS options: a private CA (`ca`), a floor (`minVersion`), client certificates, `servername`. */
  readonly tls?: Readonly<ConnectionOptions>;
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

/**
 * nodemailer's own time-outs (2 minutes to connect, a socket idle for 10) outlast the library's
 * limit on a send (60 s) and the delivery lease (300 s). These, even added up, end a server that
 * never answers or goes quiet within that limit, so nodemailer closes the socket itself rather
 * than leaving it to linger after the library gave up. The host's own values win.
 */
const timeoutDefaults = { connectionTimeout: 15_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/** `connection` with the time-outs it leaves out; a URL gets them as query parameters, as nodemailer reads them. */
function withTimeoutDefaults(connection: SmtpConnectionOptions | string): SmtpConnectionOptions | string {
  const names = Object.keys(timeoutDefaults) as (keyof typeof timeoutDefaults)[];
  if (typeof connection !== "string") {
    return { ...connection, ...Object.fromEntries(names.map((name) => [name, connection[name] ?? timeoutDefaults[name]])) };
  }
  let url: URL;
  try {
    url = new URL(connection);
  } catch {
    // Left to nodemailer, which reports what is wrong with it.
    return connection;
  }
  const missing = names.filter((name) => !url.searchParams.has(name)).map((name) => `${name}=${timeoutDefaults[name]}`);
  // Appended to the query as written, so that the host's parameters keep their exact spelling.
  if (missing.length > 0) url.search = [url.search.slice(1), ...missing].filter((part) => part !== "").join("&");
  return url.toString();
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
    transport = nodemailer.createTransport(withTimeoutDefaults(connection));
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
 * A 5xx reply to the recipient or to the message itself (RFC 5321, 4.2.1: "the SMTP client SHOULD
 * NOT repeat the exact request"). A 5xx to the greeting, MAIL FROM or AUTH concerns every mail
 * (the host's set-up), so those are retried like any failure.
 */
function isPermanentRefusal(cause: unknown): boolean {
  if (typeof cause !== "object" || cause === null) return false;
  const { responseCode, command } = cause as { responseCode?: unknown; command?: unknown };
  return typeof responseCode === "number" && responseCode >= 500 && responseCode <= 599 && (command === "RCPT TO" || command === "DATA");
}

function describeRefusal(cause: unknown): string {
  const message = (cause as { message?: unknown }).message;
  return typeof message === "string" ? message : "the SMTP server refused the message for good";
}

/**
 * A mailer that sends through SMTP with nodemailer. `transport` is a nodemailer transporter (or
 * anything with its `sendMail`), or the connection options or URL to make one with; a transporter
 * made here gets `connectionTimeout` 15 s, `greetingTimeout` 10 s and `socketTimeout` 30 s unless
 * the options or URL set them. Every mail of one notification carries the same Message-ID, derived
 * from the notification id.
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
    const transporter = await connect();
    let info: unknown;
    try {
      info = await transporter.sendMail(mail);
    } catch (cause) {
      throw isPermanentRefusal(cause) ? new PermanentDeliveryError(describeRefusal(cause), { cause }) : cause;
    }
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
