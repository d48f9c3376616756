import type { Result } from "neverthrow";
import type { ErrorBody } from "../shared/error-body.js";

/** What a verification found: whether the password matches, and whether the hash should be renewed. */
export interface PasswordCheck {
  readonly valid: boolean;
  /** The hash is not of the configured hasher with its current parameters. */
  readonly needsRehash: boolean;
}

/**
 * Password hashing as the operations use it. The library builds it from `ports.passwordHasher`
 * and `ports.hashBounds` (with `human-users/passwords`), so hosts configure those, not this.
 */
export interface PasswordHashing {
  /** The longest password, in UTF-8 bytes, that `verify` takes (`hashBounds.maxPasswordBytes`): a longer new one could never log in. */
  readonly maxPasswordBytes: number;
  /** A new password hashed with the configured hasher. */
  hash(password: string): Promise<string>;
  /**
   * Resolves once `refusalOf` judges hashes as this runtime verifies them (which of its hashing
   * paths are native is looked up once, asynchronously). Awaited before a request is validated.
   */
  ready(): Promise<void>;
  /** Why an imported hash is refused (naming what is wrong, never echoing it), or undefined when it is accepted. */
  refusalOf(encoded: string): string | undefined;
  /** Checks `password` against a stored hash: Err 3 for a hash or password refused before hashing, 13 when hashing fails. */
  verify(encoded: string, password: string): Promise<Result<PasswordCheck, ErrorBody>>;
}
