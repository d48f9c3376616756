import type { Keys } from "../ports/keys.js";
import { SetupError } from "./open-storage.js";

export type Environment = Readonly<Record<string, string | undefined>>;

function keyFromEnvironment(env: Environment, name: string, size: { readonly min: number; readonly max: number }): Uint8Array | undefined {
  const value = env[name];
  if (value === undefined || value === "") return undefined;
  const bytes = Buffer.from(value, "base64");
  const canonical = bytes.toString("base64").replace(/=+$/, "") === value.replace(/=+$/, "");
  if (!canonical || bytes.length < size.min || bytes.length > size.max) {
    const length = size.min === size.max ? `${size.min}` : `at least ${size.min}`;
    throw new SetupError(`${name} must be standard base64 of ${length} bytes`);
  }
  return new Uint8Array(bytes);
}

/**
 * The application's keys from the environment, so that the codes this import writes (initialization,
 * phone and passwordless codes, stored as keyed hashes) can be checked by the application later.
 * Undefined when HUMAN_USERS_CODE_HMAC_KEY is not set.
 */
export function keysFromEnvironment(env: Environment): Keys | undefined {
  const codeHmacKey = keyFromEnvironment(env, "HUMAN_USERS_CODE_HMAC_KEY", { min: 32, max: 1024 });
  if (codeHmacKey === undefined) return undefined;
  const encryptionKey = keyFromEnvironment(env, "HUMAN_USERS_ENCRYPTION_KEY", { min: 32, max: 32 }) ?? crypto.getRandomValues(new Uint8Array(32));
  return { keyId: env["HUMAN_USERS_KEY_ID"] || "default", codeHmacKey, encryptionKey };
}
