export {
  smtpMailer,
  type SmtpConnectionOptions,
  type SmtpMail,
  type SmtpMailer,
  type SmtpMailerOptions,
  type SmtpTransporter,
} from "./mailer.js";
export { notificationMessageId } from "./message-id.js";
