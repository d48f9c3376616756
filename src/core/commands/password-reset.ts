import { err, ok } from "neverthrow";
import type { OutboxNotification } from "../../ports/outbox.js";
import { notInitialized, userNotFound } from "../errors/user-errors.js";
import type { PasswordResetResponse } from "../responses.js";
import { requestedUserId } from "../schemas/user-id.js";
import { deliveryShape, parsePasswordReset, passwordResetFields, type PasswordResetInput } from "../schemas/password-reset.js";
import { changeResponse } from "./change-response.js";
import type { Command } from "./command.js";
import { codeAdded, issueCode } from "./user-creation.js";
import { mailToUser, messageLink } from "./user-message.js";

/** ZITADEL's login page for a new password. */
const DEFAULT_RESET_PATH = "/ui/login/password/init?userID={{.UserID}}&code={{.Code}}&orgID={{.OrgID}}";

/**
 * ZITADEL's `PasswordReset` (`POST /v2/users/{userId}/password_reset`): a reset code
 * (6 characters, 1 hour by default) mailed to the user's own address or returned. As in ZITADEL,
 * the caller must be allowed to write the user (a "forgot password" page calls as the login
 * application): an anonymous caller could otherwise replace a pending code, send mails at will,
 * point the link at a host of its choosing and tell which user ids exist. A user still waiting for
 * its initialization answers 9: its initialization code sets the first password.
 */
export const passwordResetCommand: Command<PasswordResetInput, PasswordResetResponse> = {
  name: "passwordReset",
  fields: passwordResetFields,
  shape: deliveryShape,
  access: () => ({ permission: "user.write", proof: false }),
  target: (request) => ({ userId: requestedUserId(request) }),
  parse: parsePasswordReset,
  async decide({ ports, parsed, user, now, origin }) {
    if (user === undefined) return err(userNotFound());
    // As ZITADEL's state: a lock comes first, so a locked user still initializing may reset.
    if (user.lifecycle === "USER_STATE_INITIAL") return err(notInitialized());
    const code = issueCode(ports, "passwordReset", now);
    const returned = parsed.delivery.kind === "return";
    const notifications: OutboxNotification[] = [];
    if (parsed.delivery.kind === "mail") {
      const source = { requested: parsed.delivery.urlTemplate, requestField: ["sendLink", "urlTemplate"], configured: ports.config?.passwordResetUrlTemplate, defaultPath: DEFAULT_RESET_PATH };
      const link = messageLink(ports, origin, source, { UserID: user.userId, Code: code.plain, OrgID: user.orgId });
      if (link.isErr()) return err(link.error);
      notifications.push(mailToUser(ports, user, "email.password_reset", code, link.value, now));
    }
    return ok({
      userId: user.userId,
      events: [{ type: "user.human.password.code.added", payload: codeAdded(code, returned) }],
      notifications,
      respond: (facts) => ok({ ...changeResponse(facts), ...(returned ? { verificationCode: code.plain } : {}) }),
    });
  },
};
