// The member every command on an existing user starts with, checked before anyone is asked for
// permission: the user it acts on.
import type { FieldViolation } from "../errors/index.js";
import { textProblem } from "../rules/characters.js";
import { violation } from "../validation/violations.js";
import { MAX_TEXT } from "./fields.js";
import { mergeFieldTrees, type FieldTree } from "../wire/field-tree.js";

/** Violations of a required id member (`userId`, `passkeyId`): a string of 1 to 200 characters. */
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

/** The schema's fields and the leaf members the shape reads. */
export function withLeaves(fields: FieldTree, ...names: readonly string[]): FieldTree {
  return mergeFieldTrees(fields, leafFields(...names));
}

/** The target of a command on an existing user; its `userId` passed `idShape`. */
export function userTarget(request: Readonly<Record<string, unknown>>): { readonly userId: string } {
  return { userId: String(request["userId"]) };
}
