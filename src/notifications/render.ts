import { err, Result } from "neverthrow";
import type { MailTemplate, MessageTemplates, SmsTemplate } from "../ports/config.js";
import type { MailKind, MailMessage } from "../ports/mailer.js";
import type { SmsMessage } from "../ports/sms-sender.js";
import type { OutboxNotification } from "../ports/storage.js";
import { asIs, escapeHtml, singleLine } from "./escape.js";
import { chooseTemplate } from "./language.js";
import { fillTemplate, type MessageValues } from "./placeholders.js";
import { describeValidity } from "./validity.js";

/** A notification made ready to send: a mail message or an SMS. */
export type RenderedNotification =
  | { readonly channel: "mail"; readonly message: MailMessage }
  | { readonly channel: "sms"; readonly message: SmsMessage };

function valuesOf(notification: OutboxNotification, language: string): MessageValues {
  return {
    displayName: notification.displayName,
    username: notification.username,
    recipient: notification.recipient,
    code: notification.code,
    link: notification.link,
    validity: describeValidity(notification.createdAt, notification.expiresAt, language),
    expiresAt: notification.expiresAt,
  };
}

/** Every value escaped for HTML once: a mail's HTML has the link three times. */
function escapedValues(values: MessageValues): MessageValues {
  return {
    displayName: escapeHtml(values.displayName),
    username: escapeHtml(values.username),
    recipient: escapeHtml(values.recipient),
    code: escapeHtml(values.code),
    link: escapeHtml(values.link),
    validity: escapeHtml(values.validity),
    expiresAt: escapeHtml(values.expiresAt),
  };
}

function renderMail(
  notification: OutboxNotification,
  kind: MailKind,
  chosen: { language: string; template: MailTemplate },
): Result<RenderedNotification, string> {
  const values = valuesOf(notification, chosen.language);
  return Result.combine([
    fillTemplate(chosen.template.subject, values, singleLine, "subject"),
    fillTemplate(chosen.template.text, values, asIs, "text"),
    fillTemplate(chosen.template.html, escapedValues(values), asIs, "html"),
  ]).map(([subject, text, html]) => ({
    channel: "mail" as const,
    message: {
      id: notification.id,
      kind,
      to: notification.recipient,
      subject,
      text,
      html,
      code: notification.code,
      link: notification.link,
      userId: notification.userId,
      orgId: notification.orgId,
    },
  }));
}

function renderSms(
  notification: OutboxNotification,
  chosen: { language: string; template: SmsTemplate },
): Result<RenderedNotification, string> {
  const values = valuesOf(notification, chosen.language);
  return fillTemplate(chosen.template.text, values, asIs, "text").map((text) => ({
    channel: "sms" as const,
    message: { id: notification.id, to: notification.recipient, text, code: notification.code },
  }));
}

/**
 * Turns an outbox notification into the message to hand over, in the user's language, with the
 * host's templates where it has some. In HTML every value is escaped; in the subject every value is
 * kept on one line; plain text and SMS take values as they are.
 */
export function renderNotification(
  notification: OutboxNotification,
  templates?: MessageTemplates,
): Result<RenderedNotification, string> {
  const kind = notification.kind;
  switch (kind) {
    case "email.verification":
    case "email.initialization":
    case "email.password_reset":
    case "email.passkey_registration": {
      const chosen = chooseTemplate(kind, notification.locale, templates);
      return chosen === undefined ? err(`no template for ${kind}`) : renderMail(notification, kind, chosen);
    }
    case "phone.verification": {
      const chosen = chooseTemplate(kind, notification.locale, templates);
      return chosen === undefined ? err(`no template for ${kind}`) : renderSms(notification, chosen);
    }
    default:
      return err(`unknown notification kind ${JSON.stringify(kind satisfies never)}`);
  }
}
