import { err, ok } from "neverthrow";
import type { OutboxNotification } from "../../ports/outbox.js";
import { userNotFound } from "../errors/user-errors.js";
import type { CreatePasskeyRegistrationLinkResponse } from "../responses.js";
import { PASSKEY_LINK_PLACEHOLDERS } from "../rules/url-template.js";
import { requestedUserId } from "../schemas/user-id.js";
import { parsePasskeyLink, passkeyLinkFields, type PasskeyLinkInput } from "../schemas/passkey-registration-link.js";
import { deliveryShape } from "../schemas/password-reset.js";
import { changeResponse } from "./change-response.js";
import type { Command } from "./command.js";
import { codeAdded, issueCode } from "./user-creation.js";
import { mailToUser, messageLink } from "./user-message.js";

/** The link `importHumanUser` returns, as ZITADEL's login page reads it. */
const DEFAULT_PASSKEY_PATH = "/ui/login/login/passwordless/init?userID={{.UserID}}&orgID={{.OrgID}}&codeID={{.CodeID}}&code={{.Code}}";

/**
 * ZITADEL's `CreatePasskeyRegistrationLink`
 * (`POST /v2/users/{userId}/passkeys/registration_link`): a new passwordless registration code, as
 * `importHumanUser` issues one, mailed as a link (the default) or returned; `registerPasskey` takes it.
 */
export const createPasskeyRegistrationLinkCommand: Command<PasskeyLinkInput, CreatePasskeyRegistrationLinkResponse> = {
  name: "createPasskeyRegistrationLink",
  fields: passkeyLinkFields,
  shape: deliveryShape,
  access: () => ({ permission: "user.write", proof: false }),
  target: (request) => ({ userId: requestedUserId(request) }),
  parse: parsePasskeyLink,
  async decide({ ports, parsed, user, now, origin }) {
    if (user === undefined) return err(userNotFound());
    const code = issueCode(ports, "passwordless", now);
    const codeId = ports.ids.next();
    const returned = parsed.delivery.kind === "return";
    const notifications: OutboxNotification[] = [];
    if (parsed.delivery.kind === "mail") {
      const source = {
        requested: parsed.delivery.urlTemplate,
        requestField: ["sendLink", "urlTemplate"],
        configured: ports.config?.passkeyRegistrationUrlTemplate,
        defaultPath: DEFAULT_PASSKEY_PATH,
        placeholders: PASSKEY_LINK_PLACEHOLDERS,
      };
      const link = messageLink(ports, origin, source, { UserID: user.userId, OrgID: user.orgId, CodeID: codeId, Code: code.plain });
      if (link.isErr()) return err(link.error);
      notifications.push(mailToUser(ports, user, "email.passkey_registration", code, link.value, now));
    }
    return ok({
      userId: user.userId,
      events: [
        { type: "user.human.passwordless.initialization.code.added", payload: { id: codeId, ...codeAdded(code, returned) } },
      ],
      notifications,
      respond: (facts) => ok({ ...changeResponse(facts), ...(returned ? { code: { id: codeId, code: code.plain } } : {}) }),
    });
  },
};
