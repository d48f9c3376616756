import { isUtf8 } from "node:buffer";
import { createReadStream } from "node:fs";

/** One line of a text file, without its line break. */
export interface Line {
  readonly text: string;
  /** 1-based. */
  readonly number: number;
  /** Byte offset just after the line (and its break): how far the file has been read. */
  readonly end: number;
  /**
   * The line was longer than the limit: it was not kept, and `text` is only its outline, its
   * quotes and commas with each run of other characters as one `x`, so that a CSV reader can
   * still find where its quoted cells close.
   */
  readonly tooLong: boolean;
  /**
   * The line's bytes are not UTF-8 (a file saved in Latin-1 or Windows-1252, say): `text` holds
   * replacement characters where they were, so that a CSV reader still finds its quotes.
   */
  readonly notUtf8: boolean;
}

/** The problem of a line (or a record holding one) that is not UTF-8. */
export const NOT_UTF8 = "not valid UTF-8 (save the file as UTF-8, or convert it with iconv)";

/** Lines longer than this are refused rather than held in memory. */
export const maxLineBytes = 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;

/**
 * A long line's outline, built as its bytes go by (UTF-8 never puts `"` or `,` inside another
 * character). Past the limit itself, the outline of a hostile line of quotes and commas stops
 * growing, and closes nothing.
 */
class Outline {
  private parts: string[] = [];
  private length = 0;
  private other = false;

  add(bytes: Buffer): void {
    for (let at = 0; at < bytes.length && this.length <= maxLineBytes; at++) {
      const byte = bytes[at];
      if (byte === QUOTE || byte === COMMA) {
        this.parts.push(byte === QUOTE ? '"' : ",");
        this.length += 1;
        this.other = false;
      } else if (!this.other && byte !== CARRIAGE_RETURN) {
        this.parts.push("x");
        this.length += 1;
        this.other = true;
      }
    }
  }

  text(): string {
    return this.length > maxLineBytes ? "" : this.parts.join("");
  }
}
const BYTE_ORDER_MARK = "\uFEFF";

/** `text` without the byte order mark it may start with. */
export function withoutByteOrderMark(text: string): string {
  return text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
}

function lineText(bytes: Buffer, number: number): string {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
  const text = bytes.toString("utf8", 0, end);
  return number === 1 ? withoutByteOrderMark(text) : text;
}

/**
 * The file's lines, read as they are asked for (the stream pauses in between), UTF-8. A line ends
 * at LF, CRLF or a lone CR (the line break of old Mac exports), also when a CRLF is split between
 * two reads.
 */
export async function* readLines(path: string): AsyncGenerator<Line, void, undefined> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let outline: Outline | undefined;
  let number = 0;
  let offset = 0;
  // The last read ended with a CR: its line ends there, or after an LF the next read starts with.
  let carriageReturnLast = false;
  const finish = (end: number): Line => {
    number += 1;
    let line: Line;
    if (outline === undefined) {
      const bytes = Buffer.concat(pending, pendingBytes);
      line = { text: lineText(bytes, number), number, end, tooLong: false, notUtf8: !isUtf8(bytes) };
    } else line = { text: outline.text(), number, end, tooLong: true, notUtf8: false };
    pending = [];
    pendingBytes = 0;
    outline = undefined;
    return line;
  };
  const keep = (part: Buffer): void => {
    if (outline !== undefined) {
      outline.add(part);
      return;
    }
    pendingBytes += part.length;
    if (pendingBytes > maxLineBytes) {
      outline = new Outline();
      for (const kept of pending) outline.add(kept);
      outline.add(part);
      pending = [];
      pendingBytes = 0;
    } else pending.push(part);
  };

  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    let start = 0;
    if (carriageReturnLast) {
      carriageReturnLast = false;
      if (bytes[0] === NEWLINE) start = 1;
      yield finish(offset + start);
    }
    // Where the next LF and the next CR are, each searched for again only once passed.
    let newline = bytes.indexOf(NEWLINE, start);
    let carriageReturn = bytes.indexOf(CARRIAGE_RETURN, start);
    for (;;) {
      const at = newline < 0 ? carriageReturn : carriageReturn < 0 ? newline : Math.min(newline, carriageReturn);
      if (at < 0) break;
      keep(bytes.subarray(start, at));
      start = at + 1;
      if (at === carriageReturn) {
        if (start === bytes.length) {
          carriageReturnLast = true;
          break;
        }
        if (bytes[start] === NEWLINE) start += 1;
      }
      yield finish(offset + start);
      if (newline >= 0 && newline < start) newline = bytes.indexOf(NEWLINE, start);
      if (carriageReturn >= 0 && carriageReturn < start) carriageReturn = bytes.indexOf(CARRIAGE_RETURN, start);
    }
    if (!carriageReturnLast) keep(bytes.subarray(start));
    offset += bytes.length;
  }
  if (carriageReturnLast || pendingBytes > 0 || outline !== undefined) yield finish(offset);
}
