import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import type { FieldViolation } from "../errors/index.js";
import type { UserDraft } from "../user-draft.js";
import { defaultRequestLimits } from "../validation/request-limits.js";
import { inFieldOrder, violationsFromIssues } from "../validation/violations.js";
import type { RulesContext } from "./rules-context.js";

type AnySchema = v.BaseSchema<unknown, unknown, v.BaseIssue<unknown>>;

export interface RequestRules<TSchema extends AnySchema> {
  /** The field schemas; built once per RulesContext. */
  readonly schema: (context: RulesContext) => TSchema;
  /** Rules across fields, checked on the raw request so they are reported beside all others. */
  readonly crossField: (request: unknown) => FieldViolation[];
  readonly toDraft: (parsed: v.InferOutput<TSchema>) => UserDraft;
  /** Top-level names in request order: violations are reported in this order. */
  readonly fieldOrder: readonly string[];
}

/**
 * A parser that reports every violation at once, up to the configured cap, or gives the
 * normalized draft. It answers at most `maxFieldViolations + 1` violations: the one past the cap
 * tells the error body that more were left out.
 */
export function requestParser<TSchema extends AnySchema>(rules: RequestRules<TSchema>) {
  const schemas = new WeakMap<RulesContext, TSchema>();
  return (request: unknown, context: RulesContext): Result<UserDraft, FieldViolation[]> => {
    let schema = schemas.get(context);
    if (schema === undefined) {
      schema = rules.schema(context);
      schemas.set(context, schema);
    }
    const parsed = v.safeParse(schema, request, { abortEarly: false });
    const violations = [...(parsed.success ? [] : violationsFromIssues(parsed.issues)), ...rules.crossField(request)];
    if (violations.length > 0 || !parsed.success) {
      const cap = (context.limits ?? defaultRequestLimits).maxFieldViolations;
      return err(inFieldOrder(violations, rules.fieldOrder).slice(0, cap + 1));
    }
    return ok(rules.toDraft(parsed.output));
  };
}
