/**
 * The entry of `record` under `key`, or undefined: only the record's own entries, so that a key a
 * request chose (`__proto__`, `constructor`) never finds what every object inherits.
 */
export function entryOf<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
