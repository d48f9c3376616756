import { err, ok, ResultAsync, type Result } from "neverthrow";
import type { ErrorBody } from "../core/errors/index.js";
import { defaultHashBounds, type HashBounds } from "./bounds.js";
import { checkBounds, checkInput, computeMatch, parseSyntax, withinBounds } from "./dispatch.js";
import { utf8 } from "./encoding/bytes.js";
import { internalBody, rejectionBody } from "./errors.js";
import { defaultPasswordHasher } from "./hashers/default.js";
import type { PasswordHasher } from "./hashers/hasher.js";
import type { ParsedPasswordHash } from "./parsed.js";
import { malformed, passwordTooLong, type HashRejection } from "./rejection.js";

/** Sync, no hashing at all, microseconds: used when importing a user. */
export function parsePasswordHash(encoded: string, bounds: HashBounds = defaultHashBounds): Result<ParsedPasswordHash, HashRejection> {
  if (typeof encoded !== "string") return err(malformed("password", "hash", "is not a string"));
  return parseSyntax(encoded).andThen((parsed) => withinBounds(parsed, bounds));
}

export interface VerifyPasswordOptions {
  readonly bounds?: HashBounds;
  readonly hasher?: PasswordHasher;
}

export interface PasswordVerification {
  readonly valid: boolean;
  /** Not of the configured hasher with its current parameters: hash again after a good login. */
  readonly needsRehash: boolean;
}

/** The password as bytes, or the refusal when it is over the limit. */
export function passwordInput(password: string | Uint8Array, bounds: HashBounds): Result<Uint8Array, HashRejection> {
  const bytes = typeof password === "string" ? utf8(password) : password;
  return bytes.length > bounds.maxPasswordBytes ? err(passwordTooLong(bounds.maxPasswordBytes)) : ok(bytes);
}

/**
 * Verifies an already parsed hash. Bounds are checked again right before hashing, so a hash
 * parsed under looser bounds cannot slip through.
 */
export function verifyParsedPassword(
  parsed: ParsedPasswordHash,
  password: string | Uint8Array,
  options: VerifyPasswordOptions = {},
): ResultAsync<PasswordVerification, ErrorBody> {
  const bounds = options.bounds ?? defaultHashBounds;
  const hasher = options.hasher ?? defaultPasswordHasher;
  const checked = passwordInput(password, bounds).andThen((bytes) => {
    const rejection = checkBounds(parsed, bounds) ?? checkInput(parsed, bytes);
    return rejection === undefined ? ok(bytes) : err(rejection);
  });
  if (checked.isErr()) return new ResultAsync(Promise.resolve(err(rejectionBody(checked.error))));
  const bytes = checked.value;
  const run = async (): Promise<Result<PasswordVerification, ErrorBody>> => {
    try {
      const valid = await computeMatch(parsed, bytes);
      return ok({ valid, needsRehash: !hasher.isCurrent(parsed) });
    } catch {
      return err(internalBody("PASSWORD-v3ri", "password verification"));
    }
  };
  return new ResultAsync(run());
}

/**
 * `Ok({valid, needsRehash})`, or `Err` code 3 when the hash does not parse, is out of bounds,
 * or the password is over the limit. Never throws or rejects. A `Uint8Array` password is taken
 * as the exact bytes (for legacy imports whose passwords were not UTF-8).
 */
export function verifyPassword(
  hash: string,
  password: string | Uint8Array,
  options: VerifyPasswordOptions = {},
): ResultAsync<PasswordVerification, ErrorBody> {
  const parsed = parsePasswordHash(hash, options.bounds ?? defaultHashBounds);
  if (parsed.isErr()) return new ResultAsync(Promise.resolve(err(rejectionBody(parsed.error))));
  return verifyParsedPassword(parsed.value, password, options);
}

/** Hashes with `hasher` (default `defaultPasswordHasher`). Code 3 for an over-long password, 13 if the hasher fails. */
export function hashPassword(password: string, hasher: PasswordHasher = defaultPasswordHasher): ResultAsync<string, ErrorBody> {
  const input = passwordInput(password, defaultHashBounds);
  if (input.isErr()) return new ResultAsync(Promise.resolve(err(rejectionBody(input.error))));
  const run = async (): Promise<Result<string, ErrorBody>> => {
    try {
      return ok(await hasher.hash(password));
    } catch {
      return err(internalBody("PASSWORD-h4sh", "password hashing"));
    }
  };
  return new ResultAsync(run());
}
