import { csvRecords } from "./csv.js";
import { readHeader, requestFromCells } from "./csv-mapping.js";
import { readLines, type Line } from "./lines.js";

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
    try {
      yield { line: line.number, end: line.end, request: JSON.parse(line.text) as unknown };
    } catch {
      // The parser's message may quote the line, and the line may hold a password: never echoed.
      yield { line: line.number, end: line.end, problem: "the line is not valid JSON" };
    }
  }
}

async function* csvRows(lines: AsyncIterable<Line>): AsyncGenerator<Row, void, undefined> {
  const records = csvRecords(lines);
  const first = await records.next();
  if (first.done === true) throw new InputError("the CSV file has no header row: its first line must name the columns (see --help)");
  if (first.value.problem !== undefined) throw new InputError(`the CSV header on line ${first.value.line} cannot be read: ${first.value.problem}`);
  const header = readHeader(first.value.cells);
  if ("unknown" in header) throw new InputError(`the CSV header names unknown columns: ${header.unknown.map((name) => JSON.stringify(name)).join(", ")}`);
  for await (const record of records) {
    const { line, end } = record;
    if (record.problem !== undefined) yield { line, end, problem: record.problem };
    else if (record.cells.length !== header.columns.length) {
      yield { line, end, problem: `the row has ${record.cells.length} cells, the header ${header.columns.length}` };
    } else yield { line, end, request: requestFromCells(header.columns, record.cells) };
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
