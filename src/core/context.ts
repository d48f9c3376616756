import type { Requester } from "../ports/authorizer.js";

/** Who is asking, and where: the parts of a call that are not its body. */
export interface OperationContext {
  /** The authenticated caller; without one every operation answers code 16. */
  readonly requester?: Requester;
  /** The organization header (`importHumanUser`), and the fallback for `createHumanUser`. */
  readonly orgId?: string;
  /** Public base URL for links, e.g. `https://id.example.com`: as `config.origin`, an absolute http(s) URL without query, fragment or braces (else code 9). */
  readonly origin?: string;
}
