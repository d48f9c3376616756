// Messages to an existing user: the outbox entry and the link it carries.
import { err, ok, type Result } from "neverthrow";
import type { NotificationKind, OutboxNotification } from "../../ports/outbox.js";
import type { ErrorBody } from "../../shared/error-body.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import { parseUrlTemplate, renderUrlTemplate, type TemplateValue, type UrlTemplate } from "../rules/url-template.js";
import type { UserState } from "../users/user-state.js";
import { codeNotification } from "./code-notification.js";
import { portFailure } from "./port-call.js";
import type { IssuedCode } from "./user-creation.js";

/** A mail to the user's address carrying `code` and `link`, in the user's language. */
export function mailToUser(ports: ResolvedPorts, user: UserState, kind: NotificationKind, code: IssuedCode, link: string, now: Date): OutboxNotification {
  return codeNotification(ports, user, kind, user.email.address, code, link, now);
}

export interface LinkSource {
  /** The request's template, already parsed. */
  readonly requested: UrlTemplate | undefined;
  /** The host's configured template, parsed here. */
  readonly configured: string | undefined;
  /** The default, a path after the origin. */
  readonly defaultPath: string;
  readonly placeholders?: readonly TemplateValue[];
}

/** The link of a message: from the request's template, else the configured one, else the default. A bad configured one is 13. */
export function messageLink(
  ports: ResolvedPorts,
  origin: string,
  source: LinkSource,
  values: Readonly<Partial<Record<TemplateValue, string>>>,
): Result<string, ErrorBody> {
  if (source.requested !== undefined) return ok(renderUrlTemplate(source.requested, values));
  const template = parseUrlTemplate(source.configured ?? `${origin}${source.defaultPath}`, source.placeholders);
  if (template.isErr()) return err(portFailure(new Error(`link template ${template.error}`), "link configuration", ports.logger));
  return ok(renderUrlTemplate(template.value, values));
}
