import type { HashBounds } from "../../passwords/bounds.js";
import type { PasswordComplexityPolicy } from "../../ports/storage.js";

/** What the field rules need beyond the request: configuration and the organization's policy. */
export interface RulesContext {
  readonly defaultPhoneRegion: string | undefined;
  readonly hashBounds: HashBounds;
  readonly passwordPolicy: PasswordComplexityPolicy | undefined;
}
