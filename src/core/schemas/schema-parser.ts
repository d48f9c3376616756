import { err, ok, type Result } from "neverthrow";
import type * as v from "valibot";
import { safeParse } from "valibot";
import type { FieldViolation } from "../errors/index.js";
import { inFieldOrder, violationsFromIssues } from "../validation/violations.js";
import type { FieldTree } from "../wire/field-tree.js";
import { fieldTreeOf } from "./field-tree-of.js";
import { neutralRulesContext, type RulesContext } from "./rules-context.js";

type AnySchema = v.BaseSchema<unknown, unknown, v.BaseIssue<unknown>>;

export interface SchemaParser<T> {
  /** The members the schema reads (the request copy reads these only). */
  readonly fields: FieldTree;
  parse(request: unknown, context: RulesContext): Result<T, FieldViolation[]>;
}

/**
 * A parser for a request whose schema may depend on the organization's rules (a password
 * policy): built once per RulesContext, reporting every violation at once in `fieldOrder`.
 */
export function schemaParser<TSchema extends AnySchema>(schema: (context: RulesContext) => TSchema, fieldOrder: readonly string[]): SchemaParser<v.InferOutput<TSchema>> {
  const schemas = new WeakMap<RulesContext, TSchema>();
  return {
    fields: fieldTreeOf(schema(neutralRulesContext)),
    parse(request, context) {
      let built = schemas.get(context);
      if (built === undefined) {
        built = schema(context);
        schemas.set(context, built);
      }
      const parsed = safeParse(built, request, { abortEarly: false });
      return parsed.success ? ok(parsed.output) : err(inFieldOrder(violationsFromIssues(parsed.issues), fieldOrder));
    },
  };
}
