import { err, ok, type Result } from "neverthrow";
import type { ErrorBody } from "../../shared/error-body.js";
import { alreadyInitialized, userNotFound } from "../errors/user-errors.js";
import type { UserEventDraft } from "../events/user-events.js";
import type { ChangeResponse } from "../responses.js";
import { parseResendInitializationRequest, resendInitializationFields } from "../schemas/resend-code.js";
import { requestedUserId, userIdShape } from "../schemas/user-id.js";
import { foldForSearch } from "../users/user-listing.js";
import { changeResponse } from "./change-response.js";
import { codeNotification } from "./code-notification.js";
import type { Command, Decision } from "./command.js";
import { DEFAULT_TEMPLATES, issueCode } from "./user-creation.js";
import { messageLink } from "./user-message.js";

/**
 * ZITADEL's management `ResendHumanInitialization`
 * (`POST /management/v1/users/{userId}/_resend_initialization`): a new initialization code and
 * mail for a user that is not initialized yet (9 for one that is). A given `email` that differs
 * from the user's (ignoring case) first changes the address (`user.human.email.changed`, unverified), and the
 * mail goes there. Needs `user.write`.
 */
export const resendInitializationCommand: Command<{ readonly email: string | undefined }, ChangeResponse> = {
  name: "resendInitialization",
  fields: resendInitializationFields,
  shape: userIdShape,
  access: () => ({ permission: "user.write", proof: false }),
  target: (request) => ({ userId: requestedUserId(request) }),
  parse: parseResendInitializationRequest,
  decide({ user, parsed, ports, now, origin }): Promise<Result<Decision<ChangeResponse>, ErrorBody>> {
    if (user === undefined) return Promise.resolve(err(userNotFound()));
    if (user.initCode === undefined) return Promise.resolve(err(alreadyInitialized()));
    const events: UserEventDraft[] = [];
    // Emails compare ignoring case, here as everywhere: only another address is a change.
    const changed = parsed.email !== undefined && foldForSearch(parsed.email) !== foldForSearch(user.email.address);
    const address = changed ? parsed.email : user.email.address;
    if (changed) events.push({ type: "user.human.email.changed", payload: { email: address } });
    const code = issueCode(ports, "init", now);
    events.push({ type: "user.human.initialization.code.added", payload: code.stored });
    const source = { requested: undefined, requestField: [], configured: ports.config?.initializationUrlTemplate, defaultPath: DEFAULT_TEMPLATES.initialization };
    const link = messageLink(ports, origin, source, { UserID: user.userId, Code: code.plain, OrgID: user.orgId });
    if (link.isErr()) return Promise.resolve(err(link.error));
    const notification = codeNotification(ports, user, "email.initialization", address, code, link.value, now);
    return Promise.resolve(ok({ userId: user.userId, events, notifications: [notification], respond: (facts) => ok(changeResponse(facts)) }));
  },
};
