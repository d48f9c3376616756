import { repeatedMember } from "../shared/repeated-member.js";
import { csvRecords, type CsvRecord } from "./csv.js";
import { readHeader, requestFromCells, type CsvColumn, type HeaderCell } from "./csv-mapping.js";
import { NOT_UTF8, readLines, withoutByteOrderMark, type Line } from "./lines.js";
import { unknownImportFields } from "./unknown-fields.js";

export type InputFormat = "jsonl" | "csv";

/** One row of the input: a request to import, or why the row could not be read. */
export type Row =
  | { readonly line: number; readonly end: number; readonly request: unknown }
  | { readonly line: number; readonly end: number; readonly problem: string; readonly code?: number; readonly field?: string };

/** Thrown before the first row when the file cannot be used at all (e.g. a CSV header naming unknown columns). */
export class InputError extends Error {
  override readonly name = "InputError";
}

async function* jsonLinesRows(lines: AsyncIterable<Line>): AsyncGenerator<Row, void, undefined> {
  for await (const line of lines) {
    if (line.tooLong) {
      yield { line: line.number, end: line.end, problem: "the line is longer than 1 MiB" };
      continue;
    }
    if (line.text.trim() === "") continue;
    if (line.notUtf8) {
      yield { line: line.number, end: line.end, problem: `the line is ${NOT_UTF8}` };
      continue;
    }
    let request: unknown;
    try {
      // A byte order mark on any line: files joined with `cat` keep each one's.
      request = JSON.parse(withoutByteOrderMark(line.text));
    } catch {
      // The parser's message may quote the line, and the line may hold a password: never echoed.
      yield { line: line.number, end: line.end, problem: "the line is not valid JSON" };
      continue;
    }
    // JSON.parse keeps the last of two: the first value would be dropped without a report line.
    const repeated = typeof request === "object" && request !== null ? repeatedMember(line.text, request) : undefined;
    if (repeated !== undefined) {
      yield { line: line.number, end: line.end, code: 3, field: repeated, problem: `the line gives ${repeated} twice, and only the last would be read: give it once` };
      continue;
    }
    const unknown = unknownImportFields(request);
    const [first] = unknown;
    if (first === undefined) yield { line: line.number, end: line.end, request };
    else {
      const listed = unknown.map(({ path, meant, why }) => (why !== undefined ? `${path} (${why})` : meant === undefined ? path : `${path} (did you mean ${meant}?)`)).join(", ");
      yield { line: line.number, end: line.end, code: 3, field: first.path, problem: `fields the import does not read, which would be dropped: ${listed}` };
    }
  }
}

const noHeaderRow = "the CSV file has no header row: its first line must name the columns (see --help)";

/** The cells as a message lists them: `"Email" (column 4) and "email" (column 5)`. */
function listedCells(cells: readonly HeaderCell[]): string {
  const named = cells.map((cell) => `${JSON.stringify(cell.name)} (column ${cell.position})`);
  return named.length > 1 ? `${named.slice(0, -1).join(", ")} and ${named.at(-1) ?? ""}` : named.join("");
}

/** The header's columns from the file's first record, or why the file cannot be read. */
function headerColumns(record: CsvRecord): readonly CsvColumn[] {
  if (record.problem !== undefined) throw new InputError(`the CSV header on line ${record.line} cannot be read: ${record.problem}`);
  const header = readHeader(record.cells);
  if ("columns" in header) return header.columns;
  // A line naming too few columns is a row: its cells (passwords, hashes) are never shown.
  if ("notHeader" in header) throw new InputError(`the CSV file has no header row: line ${record.line} names too few columns (fewer than half of its cells), so it is taken for a row and not shown (see --help for the columns)`);
  if ("unknown" in header) throw new InputError(`the CSV header names unknown columns: ${header.unknown.map((name) => JSON.stringify(name)).join(", ")}`);
  const groups = header.repeated.map(({ column, cells }) => `${column} as ${listedCells(cells)}`);
  throw new InputError(`the CSV header names a column more than once, and one of its cells would be dropped: ${groups.join("; ")}`);
}

/** The columns of the header, read as the first of `records`. */
async function readHeaderColumns(records: AsyncIterator<CsvRecord>): Promise<readonly CsvColumn[]> {
  const first = await records.next();
  if (first.done === true) throw new InputError(noHeaderRow);
  return headerColumns(first.value);
}

async function* csvRows(lines: AsyncIterable<Line>): AsyncGenerator<Row, void, undefined> {
  const records = csvRecords(lines);
  const columns = await readHeaderColumns(records);
  for await (const record of records) {
    const { line, end } = record;
    if (record.problem !== undefined) yield { line, end, problem: record.problem };
    else if (record.cells.length !== columns.length) {
      yield { line, end, problem: `the row has ${record.cells.length} cells, the header ${columns.length}` };
    } else yield { line, end, request: requestFromCells(columns, record.cells) };
  }
}

/**
 * Reads a CSV file's header alone and refuses the file as reading its rows would (no header, unknown
 * or repeated columns), so that it is refused before the database is touched. JSON Lines has no header.
 */
export async function checkHeader(path: string, format: InputFormat): Promise<void> {
  if (format !== "csv") return;
  const records = csvRecords(readLines(path));
  try {
    await readHeaderColumns(records);
  } finally {
    await records.return(undefined);
  }
}

/** The format a file name suggests: `.csv` is CSV, anything else JSON Lines. */
export function formatOf(path: string): InputFormat {
  return path.toLowerCase().endsWith(".csv") ? "csv" : "jsonl";
}

/** The rows of `path`, read lazily. */
export function readRows(path: string, format: InputFormat): AsyncGenerator<Row, void, undefined> {
  const lines = readLines(path);
  return format === "csv" ? csvRows(lines) : jsonLinesRows(lines);
}
