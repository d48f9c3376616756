import { keysFromEnvironment, type Environment } from "../core/secrets/environment-keys.js";
import type { Keys } from "../ports/keys.js";
import { SetupError } from "./open-storage.js";

export type { Environment };

/**
 * The application's keys from the environment, read as the library documents it
 * (`keysFromEnvironment`), so that the codes this import writes (initialization, phone and
 * passwordless codes, stored as keyed hashes) can be checked by the application later.
 * Undefined when no key variable is set; a wrong one stops the command before it starts.
 */
export function commandKeys(env: Environment): Keys | undefined {
  const keys = keysFromEnvironment(env);
  if (keys.isErr()) throw new SetupError(keys.error.message);
  return keys.value;
}
