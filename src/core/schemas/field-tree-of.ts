import type * as v from "valibot";
import type { FieldTree } from "../wire/field-tree.js";

type AnySchema = v.BaseSchema<unknown, unknown, v.BaseIssue<unknown>>;

function isSchema(value: unknown): value is AnySchema {
  return value !== null && typeof value === "object" && (value as { readonly kind?: unknown }).kind === "schema";
}

/**
 * The fields `schema` reads, learned from the schema itself so that the two never drift apart:
 * an object's entries, a `list`'s item, through `optional` and pipes (which keep the schema they
 * start with). Anything else is a leaf: the copy keeps a primitive there and reads nothing below.
 */
export function fieldTreeOf(schema: AnySchema): FieldTree {
  if ("listItem" in schema && isSchema(schema.listItem)) return { items: fieldTreeOf(schema.listItem) };
  if ("wrapped" in schema && isSchema(schema.wrapped)) return fieldTreeOf(schema.wrapped);
  if (schema.type === "object" && "entries" in schema && schema.entries !== null && typeof schema.entries === "object") {
    const members = new Map<string, FieldTree>();
    for (const [name, entry] of Object.entries(schema.entries)) if (isSchema(entry)) members.set(name, fieldTreeOf(entry));
    return { members };
  }
  return {};
}
