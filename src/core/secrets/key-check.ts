// What makes keys usable, in words that name the setting: shared by the configuration check and
// by the loading of keys from the environment.

/** Bytes of the code HMAC key: at least SHA-256's block of security, at most what is sensible to configure. */
export const CODE_HMAC_KEY_BYTES = { min: 32, max: 1024 } as const;
/** AES-256 takes exactly 32 bytes. */
export const ENCRYPTION_KEY_BYTES = 32;
const MAX_KEY_ID_LENGTH = 200;

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** Whether a key id is the current one (held to the stricter rule) or a retired one. */
export type KeyIdUse = "current" | "retired";

/**
 * A key id: recorded with every hashed code and sealed secret, and compared as it is written, so it
 * must be short, printable text. A new one (`"current"`) must also read as one id only: an id in
 * another normal form (`cafe\u0301` for `café`) or with an invisible character (`k1\u034f`) would
 * look like the id the codes were recorded under and never match it. A retired one may be what an
 * earlier version took (`❤️`, with its invisible variation selector), or the codes recorded under
 * it could no longer be read.
 */
export function keyIdProblem(keyId: unknown, name: string, use: KeyIdUse = "current"): string | undefined {
  if (typeof keyId !== "string" || keyId === "" || keyId.length > MAX_KEY_ID_LENGTH || /[\s,:]|\p{C}/u.test(keyId)) {
    return `${name} must be 1 to ${MAX_KEY_ID_LENGTH} characters, without spaces, commas, colons or control characters`;
  }
  if (use === "current" && (/\p{Default_Ignorable_Code_Point}/u.test(keyId) || keyId.normalize("NFC") !== keyId)) {
    return `${name} must be in NFC, without invisible characters (variation selectors, joiners): another id would look the same`;
  }
  return undefined;
}

/** A view on memory shared between threads: Web Crypto refuses to import a key from one. */
function isShared(bytes: Uint8Array): boolean {
  return typeof SharedArrayBuffer === "function" && bytes.buffer instanceof SharedArrayBuffer;
}

const SHARED = "must not be a view on a SharedArrayBuffer (Web Crypto refuses one): copy it with new Uint8Array(key)";

/** The problems of one key set at `name` (`ports.keys`, `ports.keys.previous[0]`). */
export function keySetProblems(value: unknown, name: string, use: KeyIdUse = "current"): string[] {
  const keySet = record(value);
  if (keySet === undefined) return [`${name} must be an object with keyId, codeHmacKey and encryptionKey`];
  const problems: string[] = [];
  const idProblem = keyIdProblem(keySet["keyId"], `${name}.keyId`, use);
  if (idProblem !== undefined) problems.push(idProblem);
  const hmacKey = keySet["codeHmacKey"];
  if (!(hmacKey instanceof Uint8Array) || hmacKey.length < CODE_HMAC_KEY_BYTES.min || hmacKey.length > CODE_HMAC_KEY_BYTES.max) {
    problems.push(`${name}.codeHmacKey must be a Uint8Array of ${CODE_HMAC_KEY_BYTES.min} to ${CODE_HMAC_KEY_BYTES.max} bytes`);
  } else if (isShared(hmacKey)) problems.push(`${name}.codeHmacKey ${SHARED}`);
  const encryptionKey = keySet["encryptionKey"];
  if (!(encryptionKey instanceof Uint8Array) || encryptionKey.length !== ENCRYPTION_KEY_BYTES) {
    problems.push(`${name}.encryptionKey must be a Uint8Array of ${ENCRYPTION_KEY_BYTES} bytes`);
  } else if (isShared(encryptionKey)) problems.push(`${name}.encryptionKey ${SHARED}`);
  return problems;
}

/** The problems of `ports.keys`: the current set, and each retired one, every key id once. */
export function keysProblems(value: unknown, name: string): string[] {
  const problems = keySetProblems(value, name);
  const previous = record(value)?.["previous"];
  if (previous === undefined) return problems;
  if (!Array.isArray(previous)) return [...problems, `${name}.previous must be an array of key sets`];
  const seen = new Set<unknown>([record(value)?.["keyId"]]);
  // By index, not forEach: a hole in the array ([, old]) is skipped by forEach but met by the
  // lookup of a code's key, which must not find it there first.
  for (let index = 0; index < previous.length; index++) {
    const keySet: unknown = previous[index];
    const at = `${name}.previous[${index}]`;
    problems.push(...keySetProblems(keySet, at, "retired"));
    const keyId = record(keySet)?.["keyId"];
    if (seen.has(keyId)) problems.push(`${at}.keyId repeats a key id: each key set needs its own`);
    seen.add(keyId);
  }
  return problems;
}
