import type { PasswordComplexityPolicy } from "../../ports/directory.js";

/** What the field rules need beyond the request: configuration and the organization's policy. */
export interface RulesContext {
  readonly defaultPhoneRegion: string | undefined;
  /** Why an imported password hash is refused, or undefined when it is accepted. */
  readonly refusalOfHash: (encoded: string) => string | undefined;
  readonly passwordPolicy: PasswordComplexityPolicy | undefined;
}
