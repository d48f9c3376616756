// Members read before anyone is asked for permission, besides `userId` (see user-id.ts): the
// login name of a password check, the passkey a verification is about.
import type { FieldViolation } from "../errors/index.js";
import { textProblem } from "../rules/characters.js";
import { violation } from "../validation/violations.js";
import type { FieldTree } from "../wire/field-tree.js";
import { MAX_TEXT } from "./fields.js";

/** Violations of a required id member (`loginName`, `passkeyId`): a string of 1 to 200 characters. */
export function idShape(request: Readonly<Record<string, unknown>>, name: string): FieldViolation[] {
  const value = request[name];
  if (value === undefined || value === null) return [violation([name], "is required")];
  if (typeof value !== "string") return [violation([name], "must be a string")];
  const problem = textProblem(value, { min: 1, max: MAX_TEXT });
  return problem === undefined ? [] : [violation([name], problem)];
}

/** A tree of leaf members (strings, numbers, flags): what a shape check reads besides the schema. */
export function leafFields(...names: readonly string[]): FieldTree {
  return { members: new Map(names.map((name) => [name, {}])) };
}
