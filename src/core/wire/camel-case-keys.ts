import type { JsonValue } from "../json.js";

/** `given_name` -> `givenName`, as protobuf JSON parsers accept; `__proto__` stays as it is. */
export function snakeToCamel(name: string): string {
  return name.includes("_") ? name.replace(/(?<=[A-Za-z0-9])_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()) : name;
}

/**
 * A copy of a parsed JSON value whose object keys are in lowerCamelCase. Objects come back without
 * a prototype, so a `__proto__` key is plain data and can never reach Object.prototype. When both
 * spellings of a name are present, the lowerCamelCase one wins.
 */
export function camelCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelCaseKeys);
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const source = value as Readonly<Record<string, JsonValue>>;
  for (const key of Object.keys(source)) {
    const camel = snakeToCamel(key);
    if (camel !== key && Object.hasOwn(source, camel)) continue;
    copy[camel] = camelCaseKeys(source[key]);
  }
  return copy;
}
