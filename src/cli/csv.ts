import { maxLineBytes, NOT_UTF8, type Line } from "./lines.js";

/** One CSV record (RFC 4180: comma-separated, `"` quotes, `""` inside quotes, line breaks inside quotes). */
export interface CsvRecord {
  readonly cells: readonly string[];
  /** The line the record starts on (1-based). */
  readonly line: number;
  /** Byte offset after the record. */
  readonly end: number;
  /** Why the record could not be read; `cells` is then empty. */
  readonly problem?: string;
}

interface Scan {
  readonly cells: string[];
  cell: string;
  quoted: boolean;
  /** Inside quotes at the end of the text scanned so far: the record goes on on the next line. */
  open: boolean;
}

/** Scans `text` onward from `scan`'s state: cells are added to `scan`. */
function scanText(scan: Scan, text: string): string | undefined {
  let at = 0;
  while (at < text.length) {
    const char = text[at] as string;
    if (scan.open) {
      if (char !== '"') scan.cell += char;
      else if (text[at + 1] === '"') (scan.cell += '"'), (at += 1);
      else scan.open = false;
    } else if (char === ",") {
      scan.cells.push(scan.cell);
      scan.cell = "";
      scan.quoted = false;
    } else if (char === '"' && scan.cell === "" && !scan.quoted) {
      scan.open = true;
      scan.quoted = true;
    } else if (scan.quoted) {
      return `text after a closing quote in cell ${scan.cells.length + 1}`;
    } else scan.cell += char;
    at += 1;
  }
  return undefined;
}

/** Records from lines; blank lines between records are skipped. */
export async function* csvRecords(lines: AsyncIterable<Line>): AsyncGenerator<CsvRecord, void, undefined> {
  let scan: Scan | undefined;
  let first = 0;
  let size = 0;
  let end = 0;
  let last = 0;
  let broken: string | undefined;
  for await (const line of lines) {
    end = line.end;
    last = line.number;
    if (scan === undefined) {
      if (line.text.trim() === "" && !line.tooLong) continue;
      scan = { cells: [], cell: "", quoted: false, open: false };
      first = line.number;
      size = 0;
      broken = undefined;
    } else scan.cell += "\n";
    size += line.text.length;
    if (line.tooLong || size > maxLineBytes) broken ??= "the record is longer than 1 MiB";
    if (line.notUtf8) broken ??= `the record is ${NOT_UTF8}`;
    const problem = scanText(scan, line.text);
    broken ??= problem;
    if (broken !== undefined) {
      // Scanned on only to find where its quotes close, so the next record is read correctly.
      scan.cells.length = 0;
      scan.cell = "";
    }
    if (scan.open) continue;
    if (broken !== undefined) yield { cells: [], line: first, end, problem: broken };
    else {
      scan.cells.push(scan.cell);
      yield { cells: scan.cells, line: first, end };
    }
    scan = undefined;
  }
  if (scan !== undefined) {
    // Every later line went into the unclosed cell: the report must say which, or they would vanish.
    const taken = last > first ? `: lines ${String(first)} to ${String(last)} were read as this one record` : "";
    const unclosed = `a quoted cell is not closed before the end of the file${taken}`;
    yield { cells: [], line: first, end, problem: broken === undefined ? unclosed : `${broken}; ${unclosed}` };
  }
}
