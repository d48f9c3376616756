// Building blocks for the request schemas: every field rule is one of these, so every message
// reads the same way.
import type { Result } from "neverthrow";
import * as v from "valibot";
import { textProblem, type TextLimits } from "../rules/characters.js";

// `null` means absent in protobuf JSON, so a required member that is null is missing, not mistyped.
const typeMessage = (expected: string) => (issue: v.BaseIssue<unknown>) =>
  issue.input === undefined || issue.input === null ? "is required" : `must be ${expected}`;

/** A string within character limits. */
export function text(limits: TextLimits) {
  return v.pipe(
    v.string(typeMessage("a string")),
    v.rawCheck<string>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = textProblem(dataset.value, limits);
      if (problem !== undefined) addIssue({ message: problem });
    }),
  );
}

/** A value turned into something else by `parse`, whose error text becomes the violation. */
export function parsedWith<TInput, TOutput>(parse: (value: TInput) => Result<TOutput, string>) {
  return v.rawTransform<TInput, TOutput>(({ dataset, addIssue, NEVER }) => {
    const result = parse(dataset.value);
    if (result.isOk()) return result.value;
    addIssue({ message: result.error });
    return NEVER;
  });
}

export const flag = v.boolean(typeMessage("true or false"));

/** An object; unknown members are dropped. */
export function record<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return v.object(entries, typeMessage("an object"));
}

export function list<const TItem extends v.BaseSchema<unknown, unknown, v.BaseIssue<unknown>>>(item: TItem) {
  return v.array(item, typeMessage("a list"));
}

/** Optional, and `null` means absent, as in protobuf JSON. */
export function optional<const TSchema extends v.BaseSchema<unknown, unknown, v.BaseIssue<unknown>>>(schema: TSchema) {
  return v.nullish(schema);
}

/** An empty message such as `returnCode: {}`: any object. */
export const emptyMessage = record({});
