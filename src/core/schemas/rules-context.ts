import type { PasswordComplexityPolicy } from "../../ports/directory.js";
import type { ResolvedRequestLimits } from "../validation/request-limits.js";

/** What the field rules need beyond the request: configuration and the organization's policy. */
export interface RulesContext {
  readonly defaultPhoneRegion: string | undefined;
  /** Why an imported password hash is refused, or undefined when it is accepted. */
  readonly refusalOfHash: (encoded: string) => string | undefined;
  readonly passwordPolicy: PasswordComplexityPolicy | undefined;
  /** The longest new password, in UTF-8 bytes, that a later check would take; absent: no limit beyond the text rule. */
  readonly maxPasswordBytes?: number;
  /** From `config.limits` (see `resolveRequestLimits`); absent means the defaults. */
  readonly limits?: ResolvedRequestLimits;
}

/** A context with nothing configured: enough to learn which fields a schema reads. */
export const neutralRulesContext: RulesContext = Object.freeze({ defaultPhoneRegion: undefined, refusalOfHash: () => undefined, passwordPolicy: undefined });
