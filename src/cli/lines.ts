import { createReadStream } from "node:fs";

/** One line of a text file, without its line break. */
export interface Line {
  readonly text: string;
  /** 1-based. */
  readonly number: number;
  /** Byte offset just after the line (and its break): how far the file has been read. */
  readonly end: number;
  /** The line was longer than the limit: `text` is empty and the rest was skipped. */
  readonly tooLong: boolean;
}

/** Lines longer than this are refused rather than held in memory. */
export const maxLineBytes = 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BYTE_ORDER_MARK = "\uFEFF";

function lineText(bytes: Buffer, number: number): string {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
  const text = bytes.toString("utf8", 0, end);
  return number === 1 && text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
}

/** The file's lines, read as they are asked for (the stream pauses in between), LF or CRLF, UTF-8. */
export async function* readLines(path: string): AsyncGenerator<Line, void, undefined> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  let number = 0;
  let offset = 0;
  const finish = (end: number): Line => {
    number += 1;
    const line = { text: tooLong ? "" : lineText(Buffer.concat(pending, pendingBytes), number), number, end, tooLong };
    pending = [];
    pendingBytes = 0;
    tooLong = false;
    return line;
  };
  const keep = (part: Buffer): void => {
    if (tooLong) return;
    pendingBytes += part.length;
    if (pendingBytes > maxLineBytes) {
      tooLong = true;
      pending = [];
      pendingBytes = 0;
    } else pending.push(part);
  };

  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    let start = 0;
    for (let at = bytes.indexOf(NEWLINE); at >= 0; at = bytes.indexOf(NEWLINE, start)) {
      keep(bytes.subarray(start, at));
      start = at + 1;
      yield finish(offset + start);
    }
    keep(bytes.subarray(start));
    offset += bytes.length;
  }
  if (pendingBytes > 0 || tooLong) yield finish(offset);
}
