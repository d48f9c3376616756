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

type AnySchema = v.BaseSchema<unknown, unknown, v.BaseIssue<unknown>>;

export interface ListBounds {
  /** A longer list is one violation on the list itself, and its entries are not checked. */
  readonly maxEntries: number;
  /** Checking the entries stops once they have given more violations than this. */
  readonly maxViolations: number;
}

/**
 * A list of `item`s within `bounds`, its length checked before any entry, so that the work and
 * the violations stay bounded however long the list is. `listItem` lets the request copy learn
 * which fields an entry has.
 */
export function list<const TItem extends AnySchema>(item: TItem, bounds: ListBounds) {
  const schema = v.pipe(
    v.unknown(),
    v.rawTransform<unknown, v.InferOutput<TItem>[]>(({ dataset, config, addIssue, NEVER }) => {
      const input = dataset.value;
      if (!Array.isArray(input)) {
        addIssue({ message: input === undefined || input === null ? "is required" : "must be a list" });
        return NEVER;
      }
      if (input.length > bounds.maxEntries) {
        addIssue({ message: `must have at most ${bounds.maxEntries} ${bounds.maxEntries === 1 ? "entry" : "entries"}` });
        return NEVER;
      }
      const output: v.InferOutput<TItem>[] = [];
      let violations = 0;
      for (let index = 0; index < input.length && violations <= bounds.maxViolations; index++) {
        const entry: unknown = input[index];
        const parsed = v.safeParse(item, entry, { abortEarly: config.abortEarly ?? false });
        if (parsed.success) {
          output.push(parsed.output);
          continue;
        }
        for (const issue of parsed.issues) {
          addIssue({ message: issue.message, path: [{ type: "array", origin: "value", input, key: index, value: entry }, ...(issue.path ?? [])] });
          violations++;
        }
      }
      return violations > 0 ? NEVER : output;
    }),
  );
  return Object.assign(schema, { listItem: item });
}

/** Optional, and `null` means absent, as in protobuf JSON. */
export function optional<const TSchema extends AnySchema>(schema: TSchema) {
  return v.nullish(schema);
}

/** An empty message such as `returnCode: {}`: any object. */
export const emptyMessage = record({});
