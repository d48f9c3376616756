// Messages to an existing user: the outbox entry and the link it carries.
import { err, ok, type Result } from "neverthrow";
import type { NotificationKind, OutboxNotification } from "../../ports/outbox.js";
import type { ErrorBody } from "../../shared/error-body.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import { invalidRequest } from "../errors/user-errors.js";
import { isHttpUrl, parseUrlTemplate, renderUrlTemplate, type TemplateValue, type UrlTemplate } from "../rules/url-template.js";
import { violation } from "../validation/violations.js";
import { warnHostOnce } from "../../shared/host-warnings.js";
import type { UserState } from "../users/user-state.js";
import { codeNotification } from "./code-notification.js";
import { portFailure } from "./port-call.js";
import type { IssuedCode } from "./user-creation.js";

/** A mail to the user's address carrying `code` and `link`, in the user's language. */
export function mailToUser(ports: ResolvedPorts, user: UserState, kind: NotificationKind, code: IssuedCode, link: string, now: Date): OutboxNotification {
  return codeNotification(ports, user, kind, user.email.address, code, link, now);
}

const DEFAULT_ORIGIN = "http://localhost:8080";

/**
 * The origin a link starts with: the one given, else localhost. Asked only where a link is made
 * from it, so that the host is warned (once, and on a durable store: a deployment, as a rule)
 * only when a mail or response would point users at localhost, not for every call without one.
 */
export function linkOrigin(ports: ResolvedPorts, origin: string | undefined): string {
  if (origin !== undefined) return origin;
  if (ports.storage.durable === true) {
    warnHostOnce(ports.logger, "default-origin", { origin: DEFAULT_ORIGIN }, `human-users: links in mails and responses start with ${DEFAULT_ORIGIN}; set config.origin (or context.origin, or --origin for human-users import) to your public URL (warned once)`);
  }
  return DEFAULT_ORIGIN;
}

export interface LinkSource {
  /** The request's template, already parsed. */
  readonly requested: UrlTemplate | undefined;
  /** Where the request gives its template, for the answer when the user's values break it. */
  readonly requestField: readonly string[];
  /** The host's configured template, parsed here. */
  readonly configured: string | undefined;
  /** The default, a path after the origin. */
  readonly defaultPath: string;
  readonly placeholders?: readonly TemplateValue[];
  /**
   * Where the request chose a value that goes into the configured template (a new user's own id):
   * when that value breaks the link, this field is refused (3), not the host's configuration (13).
   */
  readonly chosenField?: readonly string[] | undefined;
}

/**
 * The link of a message: from the request's template, else the configured one, else the default.
 * A bad configured one is 13. Templates were checked with sample values; the user's own can still
 * break one (an id put into the host): then the request's template is refused (3), and a
 * configured one is the host's failure (13).
 */
export function messageLink(
  ports: ResolvedPorts,
  origin: string | undefined,
  source: LinkSource,
  values: Readonly<Partial<Record<TemplateValue, string>>>,
): Result<string, ErrorBody> {
  let template = source.requested;
  if (template === undefined) {
    const configured = parseUrlTemplate(source.configured ?? `${linkOrigin(ports, origin)}${source.defaultPath}`, source.placeholders);
    if (configured.isErr()) return err(portFailure(new Error(`link template ${configured.error}`), "link configuration", ports.logger));
    template = configured.value;
  }
  const link = renderUrlTemplate(template, values);
  if (isHttpUrl(link)) return ok(link);
  if (source.requested !== undefined) return err(invalidRequest([violation(source.requestField, "must give an absolute http or https URL with this user's id")]));
  if (source.chosenField !== undefined) return err(invalidRequest([violation(source.chosenField, "cannot be put into the configured link template: it makes no absolute http or https URL")]));
  return err(portFailure(new Error("the link template makes no absolute http or https URL with this user's values"), "link configuration", ports.logger));
}
