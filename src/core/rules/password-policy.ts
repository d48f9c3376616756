import type { PasswordComplexityPolicy } from "../../ports/storage.js";
import { characterCount } from "./characters.js";

export const defaultPasswordPolicy: Required<PasswordComplexityPolicy> = Object.freeze({
  minLength: 8,
  hasLowercase: true,
  hasUppercase: true,
  hasNumber: true,
  hasSymbol: true,
});

/** A policy every password of at least one character meets: none of an organization's own rules. */
export const NO_COMPLEXITY_POLICY: PasswordComplexityPolicy = Object.freeze({ minLength: 1, hasLowercase: false, hasUppercase: false, hasNumber: false, hasSymbol: false });

/**
 * Every rule of the policy the password breaks, in words. A symbol is any character outside
 * A-Z, a-z and 0-9; lengths count characters.
 */
export function passwordPolicyProblems(password: string, policy: PasswordComplexityPolicy | undefined): string[] {
  const rules = { ...defaultPasswordPolicy };
  // A member left null (as a JSON column may hold it) is absent: the default stays, never turned off.
  for (const [name, value] of Object.entries(policy ?? {})) if (value !== null && value !== undefined) Object.assign(rules, { [name]: value });
  const problems: string[] = [];
  if (characterCount(password) < rules.minLength) problems.push(`must be at least ${rules.minLength} characters long`);
  if (rules.hasLowercase && !/[a-z]/.test(password)) problems.push("must contain a lower-case letter");
  if (rules.hasUppercase && !/[A-Z]/.test(password)) problems.push("must contain an upper-case letter");
  if (rules.hasNumber && !/[0-9]/.test(password)) problems.push("must contain a digit");
  if (rules.hasSymbol && !/[^A-Za-z0-9]/.test(password)) problems.push("must contain a symbol");
  return problems;
}
