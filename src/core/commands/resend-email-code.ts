import { emailAlreadyVerified, noCodePending } from "../errors/user-errors.js";
import { parseResendEmailCodeRequest, resendEmailCodeFields } from "../schemas/resend-code.js";
import { codeNotification } from "./code-notification.js";
import { resendCommand } from "./code-resend.js";
import { DEFAULT_TEMPLATES } from "./user-creation.js";
import { messageLink } from "./user-message.js";

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
    const source = {
      requested: parsed.kind === "send" ? parsed.urlTemplate : undefined,
      requestField: ["sendCode", "urlTemplate"],
      configured: ports.config?.emailVerificationUrlTemplate,
      defaultPath: DEFAULT_TEMPLATES.verification,
    };
    const link = messageLink(ports, origin, source, { UserID: user.userId, Code: code.plain, OrgID: user.orgId });
    return link.map((found) => codeNotification(ports, user, "email.verification", user.email.address, code, found, now));
  },
  fields: resendEmailCodeFields,
  parse: parseResendEmailCodeRequest,
});
