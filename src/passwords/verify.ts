import { err, errAsync, ok, ResultAsync, type Result } from "neverthrow";
import { firebaseSignerKeyBytes } from "../shared/firebase-signer-key.js";
import type { ErrorBody } from "../shared/error-body.js";
import { refuseThenable } from "../shared/host-calls.js";
import { hasUnpairedSurrogate } from "../shared/surrogates.js";
import { defaultHashBounds, resolveHashBounds, type HashBounds } from "./bounds.js";
import { checkCostBudget } from "./budget.js";
import { checkBounds, computeMatch, isParsedPasswordHash, parseSyntax, withFirebaseProjectKey, withinBounds } from "./dispatch.js";
import { utf8 } from "./encoding/bytes.js";
import { internalBody, rejectionBody } from "./errors.js";
import { defaultPasswordHasher } from "./hashers/default.js";
import type { PasswordHasher } from "./hashers/hasher.js";
import type { ParsedPasswordHash } from "./parsed.js";
import { BCRYPT_MAX_KEY_BYTES } from "./primitives/bcrypt.js";
import { hashingPaths } from "./primitives/paths.js";
import { hashNotText, hashTooLong, MAX_HASH_LENGTH, notParsedHash, passwordNotText, passwordNotUnicode, passwordTooLong, type HashRejection } from "./rejection.js";

/**
 * Sync, no hashing at all, microseconds: used when importing a user. `bounds` may be partial;
 * missing members take their defaults.
 */
export function parsePasswordHash(encoded: string, bounds: Partial<HashBounds> = defaultHashBounds): Result<ParsedPasswordHash, HashRejection> {
  if (typeof encoded !== "string") return err(hashNotText());
  if (encoded.length > MAX_HASH_LENGTH) return err(hashTooLong());
  const resolved = resolveHashBounds(bounds);
  return parseSyntax(encoded).andThen((parsed) => withinBounds(parsed, resolved));
}

/** How `verifyPassword` bounds costs and which hasher counts as current. */
export interface VerifyPasswordOptions {
  /** Cost bounds; missing members take their defaults. Default: `defaultHashBounds`. */
  readonly bounds?: Partial<HashBounds>;
  /** The hasher new passwords are hashed with, which decides `needsRehash`. Default: `defaultPasswordHasher`. */
  readonly hasher?: PasswordHasher;
  /**
   * The Firebase project's `base64_signer_key`, for hashes in SuperTokens' `$f_scrypt$` spelling,
   * which leaves it out. Without it, or with text that is not base64, such hashes answer 3.
   */
  readonly firebaseSignerKey?: string;
  /**
   * Told the cause of an internal failure (a hasher's `isCurrent` or a hashing primitive that
   * throws) before the answer is 13: the body never carries it, so a host that logs needs it here.
   */
  readonly onInternalError?: (cause: unknown) => void;
}

/** Whether the password matched, and whether the hash should be replaced. */
export interface PasswordVerification {
  readonly valid: boolean;
  /** Not of the configured hasher with its current parameters: hash again after a good login. */
  readonly needsRehash: boolean;
}

interface ResolvedOptions {
  readonly bounds: HashBounds;
  readonly hasher: PasswordHasher;
  readonly firebaseSignerKey: Uint8Array | undefined;
  readonly onInternalError: ((cause: unknown) => void) | undefined;
}

function isHasher(value: unknown): value is PasswordHasher {
  return typeof value === "object" && value !== null && typeof (value as { readonly isCurrent?: unknown }).isCurrent === "function";
}

/** Options of the wrong shape are ignored member by member: the defaults are the safe side. */
function resolveOptions(options: unknown): ResolvedOptions {
  const given =
    typeof options === "object" && options !== null ? (options as { readonly bounds?: unknown; readonly hasher?: unknown; readonly firebaseSignerKey?: unknown; readonly onInternalError?: unknown }) : {};
  const onInternalError = given.onInternalError;
  return {
    bounds: resolveHashBounds(given.bounds as Partial<HashBounds> | undefined),
    hasher: isHasher(given.hasher) ? given.hasher : defaultPasswordHasher,
    firebaseSignerKey: firebaseSignerKeyBytes(given.firebaseSignerKey),
    onInternalError: typeof onInternalError === "function" ? (onInternalError as (cause: unknown) => void) : undefined,
  };
}

/** The password as bytes, or the refusal when it is not text (or bytes) or is over the limit. */
export function passwordInput(password: unknown, bounds: HashBounds, bytesAllowed: boolean): Result<Uint8Array, HashRejection> {
  if (typeof password === "string" && hasUnpairedSurrogate(password)) return err(passwordNotUnicode());
  const bytes = typeof password === "string" ? utf8(password) : bytesAllowed && password instanceof Uint8Array ? password : undefined;
  if (bytes === undefined) return err(passwordNotText(bytesAllowed));
  return bytes.length > bounds.maxPasswordBytes ? err(passwordTooLong(bounds.maxPasswordBytes)) : ok(bytes);
}

/**
 * Whether a match proves the whole password the hash was made from. Plain bcrypt reads the first
 * 72 bytes: past them, any tail matches, and a new hash of the tail just typed would refuse the
 * others (a near miss at the first login would lock the real password out). A login of exactly 72
 * bytes proves no more: the password chosen may go on past them. Such a hash is kept, not upgraded.
 */
function readsWholePassword(parsed: ParsedPasswordHash, password: Uint8Array): boolean {
  return !(parsed.family === "bcrypt" && parsed.prehash === "none" && password.length >= BCRYPT_MAX_KEY_BYTES);
}

/** `options[name]`, read without throwing (options may be anything a JavaScript caller passes). */
function optionalMember(options: unknown, name: string): unknown {
  try {
    return typeof options === "object" && options !== null ? (options as Record<string, unknown>)[name] : undefined;
  } catch {
    return undefined;
  }
}

/** Code 13 for an internal failure, its cause told to `onInternalError` (what it throws is dropped). */
function internalFailure(cause: unknown, onInternalError: ((cause: unknown) => void) | undefined): ErrorBody {
  try {
    onInternalError?.(cause);
  } catch {
    // The answer stays 13 either way.
  }
  return internalBody("PASSWORD-v3ri", "password verification");
}

/** Runs `verification`, turning anything it throws into code 13, so that public calls never throw. */
function guarded<T>(verification: () => ResultAsync<T, ErrorBody>, onInternalError: unknown): ResultAsync<T, ErrorBody> {
  try {
    return verification();
  } catch (cause) {
    return errAsync(internalFailure(cause, typeof onInternalError === "function" ? (onInternalError as (cause: unknown) => void) : undefined));
  }
}

function verifyResolved(given: unknown, password: unknown, options: ResolvedOptions): ResultAsync<PasswordVerification, ErrorBody> {
  if (!isParsedPasswordHash(given)) return errAsync(rejectionBody(notParsedHash()));
  const keyed = withFirebaseProjectKey(given, options.firebaseSignerKey);
  if (keyed.isErr()) return errAsync(rejectionBody(keyed.error));
  const parsed: ParsedPasswordHash = keyed.value;
  const checked = passwordInput(password, options.bounds, true).andThen((bytes) => {
    const rejection = checkBounds(parsed, options.bounds);
    return rejection === undefined ? ok(bytes) : err(rejection);
  });
  if (checked.isErr()) return errAsync(rejectionBody(checked.error));
  const bytes = checked.value;
  const run = async (): Promise<Result<PasswordVerification, ErrorBody>> => {
    try {
      // Costed again at the speed this runtime will run it, for this password's length.
      const overBudget = checkCostBudget(parsed, options.bounds.maxEstimatedCostMs, { paths: await hashingPaths(), passwordBytes: bytes.length });
      if (overBudget !== undefined) return err(rejectionBody(overBudget));
      const valid = await computeMatch(parsed, bytes);
      const current: unknown = options.hasher.isCurrent(parsed);
      refuseThenable(current, "passwordHasher.isCurrent(parsed)");
      return ok({ valid, needsRehash: !current && readsWholePassword(parsed, bytes) });
    } catch (cause) {
      return err(internalFailure(cause, options.onInternalError));
    }
  };
  return new ResultAsync(run());
}

/**
 * Verifies an already parsed hash. Bounds are checked again right before hashing, so a hash
 * parsed under looser bounds cannot slip through. Never throws or rejects.
 */
export function verifyParsedPassword(
  parsed: ParsedPasswordHash,
  password: string | Uint8Array,
  options: VerifyPasswordOptions = {},
): ResultAsync<PasswordVerification, ErrorBody> {
  return guarded(() => verifyResolved(parsed, password, resolveOptions(options)), optionalMember(options, "onInternalError"));
}

/**
 * `Ok({valid, needsRehash})`, or `Err` code 3 when the hash does not parse, is out of bounds,
 * or the password is not text (a string with an unpaired surrogate is not) or is over the limit. Never throws or rejects, whatever it is
 * given. A `Uint8Array` password is taken as the exact bytes (for legacy imports whose passwords
 * were not UTF-8).
 */
export function verifyPassword(
  hash: string,
  password: string | Uint8Array,
  options: VerifyPasswordOptions = {},
): ResultAsync<PasswordVerification, ErrorBody> {
  return guarded(() => {
    const resolved = resolveOptions(options);
    const parsed = parsePasswordHash(hash, resolved.bounds);
    if (parsed.isErr()) return errAsync(rejectionBody(parsed.error));
    return verifyResolved(parsed.value, password, resolved);
  }, optionalMember(options, "onInternalError"));
}

/**
 * Hashes with `hasher` (default `defaultPasswordHasher`). Code 3 for a password that is not a
 * string (or holds an unpaired surrogate) or is over 1024 bytes, 13 if the hasher fails. Never
 * throws or rejects.
 */
export function hashPassword(password: string, hasher: PasswordHasher = defaultPasswordHasher): ResultAsync<string, ErrorBody> {
  const input = passwordInput(password, defaultHashBounds, false);
  if (input.isErr()) return errAsync(rejectionBody(input.error));
  const run = async (): Promise<Result<string, ErrorBody>> => {
    try {
      const encoded: unknown = await hasher.hash(password);
      if (typeof encoded !== "string") throw new TypeError("the hasher returned no string");
      return ok(encoded);
    } catch {
      return err(internalBody("PASSWORD-h4sh", "password hashing"));
    }
  };
  return new ResultAsync(run());
}
