import type { FieldViolation } from "../errors/index.js";
import { idpAccountKey } from "../rules/idp-account.js";
import { fieldPath, violation } from "../validation/violations.js";

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null;
}

export function member(container: unknown, name: string): unknown {
  return container !== null && typeof container === "object" ? (container as Readonly<Record<string, unknown>>)[name] : undefined;
}

/**
 * A violation at `path` when more than one of `names` is set in `container`, as a protobuf
 * `oneof` allows only one. Checked on the raw request, so it is reported beside every other
 * violation.
 */
export function atMostOneOf(container: unknown, path: readonly (string | number)[], names: readonly string[]): FieldViolation[] {
  const present = names.filter((name) => isPresent(member(container, name)));
  return present.length > 1 ? [violation(path, `only one of ${names.join(", ")} may be set`)] : [];
}

/** A violation for each of `names` that is missing or not an object. */
export function requiredObjects(request: Readonly<Record<string, unknown>>, names: readonly string[]): FieldViolation[] {
  const violations: FieldViolation[] = [];
  for (const name of names) {
    const value = request[name];
    if (value === undefined || value === null) violations.push(violation([name], "is required"));
    else if (typeof value !== "object" || Array.isArray(value)) violations.push(violation([name], "must be an object"));
  }
  return violations;
}

/**
 * A violation on each entry of the list `field` that names an identity-provider account an
 * earlier entry named (the same `idpName` and `userName` members): one account is linked once,
 * and a repeat with another display name would otherwise be dropped without a word.
 */
export function repeatedIdpAccounts(container: unknown, field: string, idpName: string, userName: string): FieldViolation[] {
  const links = member(container, field);
  if (!Array.isArray(links)) return [];
  const firstAt = new Map<string, number>();
  const violations: FieldViolation[] = [];
  links.forEach((link: unknown, index) => {
    const idpId = member(link, idpName);
    const externalUserId = member(link, userName);
    if (typeof idpId !== "string" || typeof externalUserId !== "string") return;
    const key = idpAccountKey({ idpId, externalUserId });
    const first = firstAt.get(key);
    if (first === undefined) firstAt.set(key, index);
    else violations.push(violation([field, index], `names the same identity-provider account (${idpName} and ${userName}) as ${fieldPath([field, first])}`));
  });
  return violations;
}
