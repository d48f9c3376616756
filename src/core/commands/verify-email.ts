import { emailAlreadyVerified } from "../errors/user-errors.js";
import { verificationCommand } from "./code-verification.js";

/** ZITADEL's v2 `VerifyEmail` (`POST /v2/users/{userId}/email/verify`): redeems the email code. */
export const verifyEmailCommand = verificationCommand({
  name: "verifyEmail",
  channel: "email",
  refusal: (user) => (user.email.verified ? emailAlreadyVerified() : undefined),
  pending: (user) => user.email.code,
  failed: { type: "user.human.email.verification.failed", payload: {} },
  verified: { type: "user.human.email.verified", payload: {} },
});
