import type { NotificationKind, OutboxNotification } from "../../ports/outbox.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import type { UserState } from "../users/user-state.js";
import { rfc3339 } from "../wire/timestamp.js";
import type { IssuedCode } from "./user-creation.js";

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
