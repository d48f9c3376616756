import type { FieldViolation } from "../errors/index.js";
import { violation } from "../validation/violations.js";

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
