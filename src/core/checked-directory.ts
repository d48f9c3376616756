import type { Directory, IdentityProvider, Organization } from "../ports/directory.js";

/** What an answer is, for the cause logged: its type, never its content. */
function kindOf(answer: unknown): string {
  return Array.isArray(answer) ? "an array" : typeof answer;
}

type Members = Readonly<Record<string, unknown>>;

const isAbsent = (value: unknown): boolean => value === undefined || value === null;
const isWholeNumber = (value: unknown): boolean => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/** What is wrong in an organization's policy, named by its path, or undefined. */
function policyProblem(policy: unknown): string | undefined {
  if (isAbsent(policy)) return undefined;
  if (typeof policy !== "object" || Array.isArray(policy)) return "policy is not an object";
  const { passwordComplexity, lockout, userLoginMustBeDomain } = policy as Members;
  if (!isAbsent(userLoginMustBeDomain) && typeof userLoginMustBeDomain !== "boolean") return "policy.userLoginMustBeDomain is not true or false";
  if (!isAbsent(lockout)) {
    if (typeof lockout !== "object" || Array.isArray(lockout)) return "policy.lockout is not an object";
    const attempts = (lockout as Members)["maxPasswordAttempts"];
    if (!isAbsent(attempts) && !isWholeNumber(attempts)) return "policy.lockout.maxPasswordAttempts is not a whole number of 0 or more";
  }
  if (!isAbsent(passwordComplexity)) {
    if (typeof passwordComplexity !== "object" || Array.isArray(passwordComplexity)) return "policy.passwordComplexity is not an object";
    const rules = passwordComplexity as Members;
    if (!isAbsent(rules["minLength"]) && !isWholeNumber(rules["minLength"])) return "policy.passwordComplexity.minLength is not a whole number of 0 or more";
    for (const name of ["hasLowercase", "hasUppercase", "hasNumber", "hasSymbol"]) {
      if (!isAbsent(rules[name]) && typeof rules[name] !== "boolean") return `policy.passwordComplexity.${name} is not true or false`;
    }
  }
  return undefined;
}

function organizationOf(answer: unknown, lookup: string): Organization | undefined {
  if (answer === undefined || answer === null) return undefined;
  const found = answer as { readonly id?: unknown; readonly domains?: unknown; readonly policy?: unknown };
  if (typeof answer === "object" && typeof found.id === "string" && Array.isArray(found.domains)) {
    // A mistyped policy must not quietly weaken a rule (a lockout limit of "3" read as none).
    const problem = policyProblem(found.policy);
    if (problem === undefined) return answer as Organization;
    throw new TypeError(`ports directory.${lookup} answered an organization whose ${problem}`);
  }
  throw new TypeError(`ports directory.${lookup} answered ${kindOf(answer)}, not an organization ({ id, domains }) or undefined`);
}

function providerOf(answer: unknown): IdentityProvider | undefined {
  if (answer === undefined || answer === null) return undefined;
  const found = answer as { readonly id?: unknown; readonly orgId?: unknown };
  if (typeof answer === "object" && typeof found.id === "string" && (found.orgId === undefined || typeof found.orgId === "string")) return answer as IdentityProvider;
  throw new TypeError(`ports directory.findIdentityProvider answered ${kindOf(answer)}, not an identity provider ({ id, orgId? }) or undefined`);
}

/**
 * The host's directory, each answer checked: undefined (or null) for none, else an object of the
 * port's shape. Anything else throws, so the operation answers 13 and writes nothing: an
 * organization answered as a bare string once had events written with no organization id.
 */
export function checkedDirectory(directory: Directory): Directory {
  return {
    findOrganization: (id) => Promise.resolve(directory.findOrganization(id)).then((answer: unknown) => organizationOf(answer, "findOrganization")),
    findOrganizationByDomain: (domain) => Promise.resolve(directory.findOrganizationByDomain(domain)).then((answer: unknown) => organizationOf(answer, "findOrganizationByDomain")),
    findIdentityProvider: (id) => Promise.resolve(directory.findIdentityProvider(id)).then(providerOf),
  };
}
