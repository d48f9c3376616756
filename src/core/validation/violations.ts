import type * as v from "valibot";
import type { FieldViolation } from "../errors/index.js";

/** `["metadata", 2, "value"]` -> `metadata[2].value`. */
export function fieldPath(keys: readonly (string | number)[]): string {
  let path = "";
  for (const key of keys) path += typeof key === "number" ? `[${key}]` : path === "" ? key : `.${key}`;
  return path;
}

export function violation(keys: readonly (string | number)[], description: string): FieldViolation {
  return { field: fieldPath(keys), description };
}

/** One violation per valibot issue, at the issue's path. */
export function violationsFromIssues(issues: readonly v.BaseIssue<unknown>[]): FieldViolation[] {
  return issues.map((issue) => {
    const keys = (issue.path ?? []).map((item) => item.key as string | number);
    return violation(keys, issue.message);
  });
}

/**
 * Violations in the order of `fieldOrder` (top-level names), keeping the order within a field,
 * so that the first one reported is the first field of the request.
 */
export function inFieldOrder(violations: readonly FieldViolation[], fieldOrder: readonly string[]): FieldViolation[] {
  const rank = (field: string) => {
    const top = /^[^.[]*/.exec(field)?.[0] ?? field;
    const index = fieldOrder.indexOf(top);
    return index === -1 ? fieldOrder.length : index;
  };
  return violations
    .map((item, index) => ({ item, index, rank: rank(item.field) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ item }) => item);
}
