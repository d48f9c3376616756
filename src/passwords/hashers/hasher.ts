import type { ParsedPasswordHash } from "../parsed.js";

/** Hashes new passwords into self-describing strings that `parsePasswordHash` accepts. */
export interface PasswordHasher {
  readonly name: string;
  /** Hashes a new password into its self-describing encoded form. */
  hash(password: string): Promise<string>;
  /** Same algorithm and same parameters as this hasher: no rehash needed. */
  isCurrent(parsed: ParsedPasswordHash): boolean;
}

/** Hasher parameters are configuration: a wrong one is a programming error, reported at once. */
export function requireInteger(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer in ${min}..${max}`);
  return value;
}
