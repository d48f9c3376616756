import type { IdGenerator } from "../../ports/id-generator.js";
import { refuseThenable } from "../../shared/host-calls.js";
import { textProblem } from "../rules/characters.js";
import { MAX_TEXT } from "../schemas/fields.js";

/** `null`, `undefined`, `an object`, `a number`, ...: what a value that is not a string is, in words. */
function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** What is wrong with an id the generator gave, or undefined: ids are text of 1 to 200 characters a store can hold, as a given `userId` is. */
function unusableIdProblem(id: unknown): string | undefined {
  if (typeof id !== "string") return `must be a string, not ${kindOf(id)}`;
  return textProblem(id, { min: 1, max: MAX_TEXT });
}

/**
 * The host's id generator, each id checked before it is used (user, notification, code and
 * passkey ids alike). An unusable one throws, so the call answers 13 with the cause logged, as for
 * a generator that throws, and nothing is written.
 */
export function checkedIds(ids: IdGenerator): IdGenerator {
  return {
    next() {
      const id: unknown = ids.next();
      refuseThenable(id, "ports.ids.next()");
      const problem = unusableIdProblem(id);
      if (problem !== undefined) throw new Error(`ports.ids.next() gave an unusable id: ${problem}`);
      return id as string;
    },
  };
}
