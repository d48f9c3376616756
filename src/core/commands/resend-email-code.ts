import { emailAlreadyVerified, noCodePending } from "../errors/user-errors.js";
import { parseResendEmailCodeRequest, resendEmailCodeFields } from "../schemas/resend-code.js";
import { codeLink, codeNotification, linkTemplate } from "./code-notification.js";
import { resendCommand } from "./code-resend.js";
import { DEFAULT_TEMPLATES } from "./user-creation.js";

/**
 * ZITADEL's v2 `ResendEmailCode` (`POST /v2/users/{userId}/email/resend`): a new email code in
 * place of the pending one, mailed with `sendCode.urlTemplate` (else the configured link) or
 * returned as `verificationCode`. As in ZITADEL, a code must have been issued before.
 */
export const resendEmailCodeCommand = resendCommand({
  name: "resendEmailCode",
  kind: "email",
  refusal: (user) => (user.email.verified ? emailAlreadyVerified() : user.email.code === undefined ? noCodePending("email") : undefined),
  added: (code) => ({ type: "user.human.email.code.added", payload: code }),
  message({ ports, parsed, origin, now }, user, code) {
    const given = parsed.kind === "send" ? parsed.urlTemplate : undefined;
    const template = linkTemplate(given, ports.config?.emailVerificationUrlTemplate, origin, DEFAULT_TEMPLATES.verification);
    return template.map((found) => codeNotification(ports, user, "email.verification", user.email.address, code, codeLink(found, user, code.plain), now));
  },
  fields: resendEmailCodeFields,
  parse: parseResendEmailCodeRequest,
});
