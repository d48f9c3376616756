// The documented way to give the library durable keys: four environment variables. The core does
// not read `process.env` itself (it runs where there is none): the host passes its environment.
import { err, ok, type Result } from "neverthrow";
import type { Keys, KeySet } from "../../ports/keys.js";
import { decodeLenientBase64, encodeBase64 } from "../../shared/base64.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { invalidConfiguration } from "../errors/user-errors.js";
import { CODE_HMAC_KEY_BYTES, ENCRYPTION_KEY_BYTES, keyIdProblem, type KeyIdUse } from "./key-check.js";

/** Environment variables by name, as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The variables `keysFromEnvironment` reads. */
export const keyVariables = {
  keyId: "HUMAN_USERS_KEY_ID",
  codeHmacKey: "HUMAN_USERS_CODE_HMAC_KEY",
  encryptionKey: "HUMAN_USERS_ENCRYPTION_KEY",
  previous: "HUMAN_USERS_PREVIOUS_KEYS",
} as const;

const DEFAULT_KEY_ID = "default";

type Decoded<T> = { readonly value: T } | { readonly problem: string };

/** Every problem of a key set, or its value: a host fixing its environment learns of all at once. */
type Checked<T> = { readonly value: T } | { readonly problems: readonly string[] };

function sizeText(size: { readonly min: number; readonly max: number }): string {
  return size.min === size.max ? `${size.min}` : `${size.min} to ${size.max}`;
}

/** Standard base64 (padding optional) of a size within `size`, written the one way it encodes. */
function decodeKey(text: string, name: string, size: { readonly min: number; readonly max: number }): Decoded<Uint8Array> {
  const bytes = decodeLenientBase64(text);
  const canonical = bytes !== undefined && encodeBase64(bytes, false) === text.replace(/=+$/, "");
  if (bytes === undefined || !canonical || bytes.length < size.min || bytes.length > size.max) {
    return { problem: `${name} must be standard base64 of ${sizeText(size)} bytes` };
  }
  return { value: bytes };
}

const HMAC_SIZE = CODE_HMAC_KEY_BYTES;
const ENCRYPTION_SIZE = { min: ENCRYPTION_KEY_BYTES, max: ENCRYPTION_KEY_BYTES };

function keySet(
  keyId: string,
  hmacText: string,
  encryptionText: string,
  names: { readonly keyId: string; readonly hmac: string; readonly encryption: string },
  use: KeyIdUse,
): Checked<KeySet> {
  const idProblem = keyIdProblem(keyId, names.keyId, use);
  const codeHmacKey = decodeKey(hmacText, names.hmac, HMAC_SIZE);
  const encryptionKey = decodeKey(encryptionText, names.encryption, ENCRYPTION_SIZE);
  if (idProblem !== undefined || "problem" in codeHmacKey || "problem" in encryptionKey) {
    const problems = [idProblem, "problem" in codeHmacKey ? codeHmacKey.problem : undefined, "problem" in encryptionKey ? encryptionKey.problem : undefined];
    return { problems: problems.filter((problem): problem is string => problem !== undefined) };
  }
  return { value: { keyId, codeHmacKey: codeHmacKey.value, encryptionKey: encryptionKey.value } };
}

/** `keyId:codeHmacKey:encryptionKey` entries, separated by commas: the key sets a rotation retired. */
function previousKeySets(text: string, current: string): Checked<KeySet[]> {
  const name = keyVariables.previous;
  const sets: KeySet[] = [];
  const problems: string[] = [];
  const seen = new Set([current]);
  const entries = text.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
  for (const [index, entry] of entries.entries()) {
    const at = `${name} entry ${index + 1}`;
    const parts = entry.split(":");
    if (parts.length !== 3) {
      problems.push(`${at} must be keyId:codeHmacKey:encryptionKey (the keys in standard base64)`);
      continue;
    }
    const [keyId = "", hmac = "", encryption = ""] = parts;
    const decoded = keySet(keyId, hmac, encryption, { keyId: `${at}'s keyId`, hmac: `${at}'s codeHmacKey`, encryption: `${at}'s encryptionKey` }, "retired");
    if ("problems" in decoded) problems.push(...decoded.problems);
    else if (seen.has(keyId)) problems.push(`${at} repeats the key id ${JSON.stringify(keyId)}: each key set needs its own`);
    else sets.push(decoded.value);
    seen.add(keyId);
  }
  return problems.length > 0 ? { problems } : { value: sets };
}

function read(env: Environment, name: string): string {
  return (env[name] ?? "").trim();
}

/**
 * The keys from the environment, so that codes and secrets written before a restart still check
 * after it (pass `process.env`, or the runtime's equivalent):
 * - `HUMAN_USERS_CODE_HMAC_KEY`: standard base64 of 32 to 1024 bytes (`openssl rand -base64 32`);
 * - `HUMAN_USERS_ENCRYPTION_KEY`: standard base64 of 32 bytes;
 * - `HUMAN_USERS_KEY_ID`: the name recorded with what they write (default `default`);
 * - `HUMAN_USERS_PREVIOUS_KEYS`: the key sets a rotation retired, `keyId:hmacKey:encryptionKey`
 *   separated by commas, so that what was written under them still checks.
 *
 * Ok(undefined) when none of them is set; code 9 naming every variable that is wrong or missing.
 * Never throws, and never puts a key in a message.
 */
export function keysFromEnvironment(env: Environment): Result<Keys | undefined, ErrorBody> {
  try {
    const text = {
      keyId: read(env, keyVariables.keyId),
      hmac: read(env, keyVariables.codeHmacKey),
      encryption: read(env, keyVariables.encryptionKey),
      previous: read(env, keyVariables.previous),
    };
    if (text.keyId === "" && text.hmac === "" && text.encryption === "" && text.previous === "") return ok(undefined);
    const missing = ([[text.hmac, keyVariables.codeHmacKey], [text.encryption, keyVariables.encryptionKey]] as const)
      .filter(([given]) => given === "")
      .map(([, name]) => `${name} is missing: the keys need ${keyVariables.codeHmacKey} and ${keyVariables.encryptionKey}`);
    if (missing.length > 0) return err(invalidConfiguration(missing));
    const keyId = text.keyId === "" ? DEFAULT_KEY_ID : text.keyId;
    const current = keySet(keyId, text.hmac, text.encryption, { keyId: keyVariables.keyId, hmac: keyVariables.codeHmacKey, encryption: keyVariables.encryptionKey }, "current");
    const previous = previousKeySets(text.previous, keyId);
    // Every problem at once: fixing one variable at a time, run after run, is slow at a deploy.
    const problems = [...("problems" in current ? current.problems : []), ...("problems" in previous ? previous.problems : [])];
    if (problems.length > 0 || "problems" in current || "problems" in previous) return err(invalidConfiguration(problems));
    return ok(previous.value.length === 0 ? current.value : { ...current.value, previous: previous.value });
  } catch {
    return err(invalidConfiguration(["the environment could not be read"]));
  }
}
