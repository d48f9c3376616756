import { ok, type Result } from "neverthrow";
import type { NotificationKind, OutboxNotification } from "../../ports/outbox.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import { parseUrlTemplate, renderUrlTemplate, type UrlTemplate } from "../rules/url-template.js";
import type { UserState } from "../users/user-state.js";
import { rfc3339 } from "../wire/timestamp.js";
import type { IssuedCode } from "./user-creation.js";

/** The link template for a message: the request's, else the configured one, else the default path on `origin`. */
export function linkTemplate(given: UrlTemplate | undefined, configured: string | undefined, origin: string, defaultPath: string): Result<UrlTemplate, string> {
  if (given !== undefined) return ok(given);
  return parseUrlTemplate(configured ?? `${origin}${defaultPath}`).mapErr((problem) => `link template ${problem}`);
}

/** The link a message carries for `code`. */
export function codeLink(template: UrlTemplate, user: UserState, code: string): string {
  return renderUrlTemplate(template, { UserID: user.userId, Code: code, OrgID: user.orgId });
}

/** A message with a code for an existing user, in the user's language, written with the append. */
export function codeNotification(
  ports: ResolvedPorts,
  user: UserState,
  kind: NotificationKind,
  recipient: string,
  code: IssuedCode,
  link: string,
  now: Date,
): OutboxNotification {
  return {
    id: ports.ids.next(),
    kind,
    userId: user.userId,
    orgId: user.orgId,
    recipient,
    code: code.plain,
    link,
    locale: user.profile.preferredLanguage,
    displayName: user.profile.displayName,
    username: user.username,
    createdAt: rfc3339(now),
    expiresAt: code.expiresAt,
  };
}
