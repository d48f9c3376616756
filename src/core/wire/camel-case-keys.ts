import { err, ok, type Result } from "neverthrow";
import type { JsonValue } from "../../shared/json.js";

/** `given_name` -> `givenName`, as protobuf JSON parsers accept; `__proto__` stays as it is. */
export function snakeToCamel(name: string): string {
  return name.includes("_") ? name.replace(/(?<=[A-Za-z0-9])_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()) : name;
}

/** No request of the contract nests deeper than a few levels; a deeper body is refused. */
export const MAX_DEPTH = 32;

/** Thrown inside the copy, caught by `camelCaseKeys`: the body nests deeper than MAX_DEPTH. */
class TooDeep extends Error {}

function copy(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new TooDeep();
  if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
  if (value === null || typeof value !== "object") return value;
  const result: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const source = value as Readonly<Record<string, JsonValue>>;
  for (const key of Object.keys(source)) {
    const camel = snakeToCamel(key);
    if (camel !== key && Object.hasOwn(source, camel)) continue;
    result[camel] = copy(source[key], depth + 1);
  }
  return result;
}

/**
 * A copy of a parsed JSON value whose object keys are in lowerCamelCase, or `err` when it nests
 * deeper than MAX_DEPTH (so a hostile body cannot overflow the stack). Objects come back without
 * a prototype, so a `__proto__` key is plain data and can never reach Object.prototype. When both
 * spellings of a name are present, the lowerCamelCase one wins.
 */
export function camelCaseKeys(value: unknown): Result<unknown, "too deep"> {
  try {
    return ok(copy(value, 0));
  } catch (error) {
    if (error instanceof TooDeep) return err("too deep");
    throw error;
  }
}
