import { defaultHashBounds, type HashBounds } from "../../passwords/bounds.js";
import type { PasswordComplexityPolicy } from "../../ports/storage.js";
import type { ResolvedRequestLimits } from "../validation/request-limits.js";

/** What the field rules need beyond the request: configuration and the organization's policy. */
export interface RulesContext {
  readonly defaultPhoneRegion: string | undefined;
  readonly hashBounds: HashBounds;
  readonly passwordPolicy: PasswordComplexityPolicy | undefined;
  /** From `config.limits` (see `resolveRequestLimits`); absent means the defaults. */
  readonly limits?: ResolvedRequestLimits;
}

/** A context with nothing configured: enough to learn which fields a schema reads. */
export const neutralRulesContext: RulesContext = Object.freeze({ defaultPhoneRegion: undefined, hashBounds: defaultHashBounds, passwordPolicy: undefined });
