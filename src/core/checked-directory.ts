import type { Directory, IdentityProvider, Organization } from "../ports/directory.js";

/** What an answer is, for the cause logged: its type, never its content. */
function kindOf(answer: unknown): string {
  return Array.isArray(answer) ? "an array" : typeof answer;
}

function organizationOf(answer: unknown, lookup: string): Organization | undefined {
  if (answer === undefined || answer === null) return undefined;
  const found = answer as { readonly id?: unknown; readonly domains?: unknown };
  if (typeof answer === "object" && typeof found.id === "string" && Array.isArray(found.domains)) return answer as Organization;
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
