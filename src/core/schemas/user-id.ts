import type { FieldViolation } from "../errors/index.js";
import { textProblem } from "../rules/characters.js";
import { violation } from "../validation/violations.js";
import { mergeFieldTrees, type FieldTree } from "../wire/field-tree.js";
import { MAX_TEXT } from "./fields.js";

/**
 * The first check of every request about an existing user: a `userId` to look the user up by
 * (from the body, or from the REST path).
 */
export function userIdShape(request: Readonly<Record<string, unknown>>): FieldViolation[] {
  const userId = request["userId"];
  if (userId === undefined || userId === null) return [violation(["userId"], "is required")];
  if (typeof userId !== "string") return [violation(["userId"], "must be a string")];
  const problem = textProblem(userId, { min: 1, max: MAX_TEXT });
  return problem === undefined ? [] : [violation(["userId"], problem)];
}

/** The user a request names; `userIdShape` has checked it. */
export function requestedUserId(request: Readonly<Record<string, unknown>>): string {
  return String(request["userId"]);
}

const userIdFields: FieldTree = { members: new Map([["userId", {}]]) };

/** A command's fields with `userId` (checked by `userIdShape`, read from the body or the path). */
export function withUserId(fields: FieldTree = {}): FieldTree {
  return mergeFieldTrees(userIdFields, fields);
}
