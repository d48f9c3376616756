import { ok } from "neverthrow";
import { noCodePending, noPhone, phoneAlreadyVerified } from "../errors/user-errors.js";
import { parseResendPhoneCodeRequest, resendPhoneCodeFields } from "../schemas/resend-code.js";
import { codeNotification } from "./code-notification.js";
import { resendCommand } from "./code-resend.js";

/**
 * ZITADEL's v2 `ResendPhoneCode` (`POST /v2/users/{userId}/phone/resend`): a new SMS code in
 * place of the pending one, texted through the SMS port (recorded without a message when there
 * is none, as at creation) or returned as `verificationCode`.
 */
export const resendPhoneCodeCommand = resendCommand({
  name: "resendPhoneCode",
  kind: "phone",
  refusal(user) {
    if (user.phone === undefined) return noPhone();
    if (user.phone.verified) return phoneAlreadyVerified();
    return user.phone.code === undefined ? noCodePending("phone") : undefined;
  },
  added: (code) => ({ type: "user.human.phone.code.added", payload: code }),
  message({ ports, now }, user, code) {
    const phone = user.phone;
    if (phone === undefined || ports.sms === undefined) return ok(undefined);
    return ok(codeNotification(ports, user, "phone.verification", phone.number, code, "", now));
  },
  fields: resendPhoneCodeFields,
  parse: parseResendPhoneCodeRequest,
});
