// Rows in the text format of `COPY ... FROM STDIN` (PostgreSQL manual, "COPY", File Formats):
// tab between columns, newline after each row, `\N` for null, and a backslash before the four
// characters that would otherwise end a value or a row.

/** A column value as it is written: text, a number, a boolean, or null. */
export type CopyValue = string | number | boolean | null | undefined;

const special = /[\\\t\n\r]/g;
const escapes: Readonly<Record<string, string>> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** One value: text escaped (searched once; most values have nothing to escape), booleans as `t`/`f`. */
export function copyValue(value: CopyValue): string {
  if (value === null || value === undefined) return "\\N";
  if (typeof value === "boolean") return value ? "t" : "f";
  if (typeof value === "number") return String(value);
  return value.search(special) === -1 ? value : value.replace(special, (character) => escapes[character] ?? character);
}

/**
 * One row, without its newline (`copyRows` puts them between rows). Joined natively into one flat
 * string: rows built by `+` stay chains of pieces until they are sent, and a batch of them lived
 * long enough to double the collector's share of an import (profile of a 30,000-user import).
 */
export function copyRow(values: readonly CopyValue[]): string {
  const cells = new Array<string>(values.length);
  for (let index = 0; index < values.length; index++) cells[index] = copyValue(values[index]);
  return cells.join("\t");
}

/** Rows as COPY reads them: each ends with a newline. "" for none. */
export function copyRows(rows: readonly string[]): string {
  return rows.length === 0 ? "" : `${rows.join("\n")}\n`;
}
