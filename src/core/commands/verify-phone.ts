import { noPhone, phoneAlreadyVerified } from "../errors/user-errors.js";
import { verificationCommand } from "./code-verification.js";

/** ZITADEL's v2 `VerifyPhone` (`POST /v2/users/{userId}/phone/verify`): redeems the SMS code. */
export const verifyPhoneCommand = verificationCommand({
  name: "verifyPhone",
  channel: "phone",
  refusal: (user) => (user.phone === undefined ? noPhone() : user.phone.verified ? phoneAlreadyVerified() : undefined),
  pending: (user) => user.phone?.code,
  failed: { type: "user.human.phone.verification.failed", payload: {} },
  verified: { type: "user.human.phone.verified", payload: {} },
});
