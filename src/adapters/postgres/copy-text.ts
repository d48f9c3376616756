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

/** One row, ending with its newline. */
export function copyRow(values: readonly CopyValue[]): string {
  let row = "";
  for (let index = 0; index < values.length; index++) row += (index === 0 ? "" : "\t") + copyValue(values[index]);
  return `${row}\n`;
}
