/**
 * A mailer over SMTP through nodemailer (an optional peer dependency). See docs/mail.md.
 *
 * @module human-users/smtp
 */
export {
  smtpMailer,
  type SmtpConnectionOptions,
  type SmtpMail,
  type SmtpMailer,
  type SmtpMailerOptions,
  type SmtpTransporter,
} from "./mailer.js";
export { notificationMessageId } from "./message-id.js";
