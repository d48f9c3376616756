import { err, ok, type Result } from "neverthrow";
import { repeatedMember } from "../shared/repeated-member.js";
import { problems, type HttpProblem } from "./wire-error.js";

/** A body's chunks gathered up to a limit, so that a body without (or lying in) Content-Length is cut off there too. */
export interface LimitedBody {
  /** Keeps `chunk`; false once the body is over the limit (the caller stops reading then). */
  add(chunk: Uint8Array): boolean;
  bytes(): Uint8Array;
}

/**
 * Methods on a class, so that a request's body makes no closures. A body in one chunk is kept as
 * it came; from the second chunk on, the chunks are copied into one buffer that doubles as it
 * fills (never past the limit). Keeping the chunks themselves would hold an object per chunk: a
 * body under the limit sent a byte a chunk would cost a hundred times its size, and joining them
 * at the end passed one argument per chunk, past the call stack's size.
 */
class ChunksUpToLimit implements LimitedBody {
  private first: Uint8Array | undefined;
  private buffer: Uint8Array | undefined;
  private total = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Uint8Array): boolean {
    const total = this.total + chunk.byteLength;
    if (total > this.limit) return false;
    if (this.total === 0 && this.buffer === undefined) this.first = chunk;
    else {
      const buffer = this.room(total);
      buffer.set(chunk, this.total);
    }
    this.total = total;
    return true;
  }

  bytes(): Uint8Array {
    if (this.buffer !== undefined) return this.buffer.subarray(0, this.total);
    return this.first ?? new Uint8Array();
  }

  /** A buffer for `needed` bytes, holding those kept so far. */
  private room(needed: number): Uint8Array {
    const current = this.buffer;
    if (current !== undefined && current.byteLength >= needed) return current;
    const grown = new Uint8Array(Math.min(this.limit, Math.max(needed, 2 * (current?.byteLength ?? 0), 16_384)));
    if (current !== undefined) grown.set(current.subarray(0, this.total));
    else if (this.first !== undefined) grown.set(this.first);
    this.first = undefined;
    this.buffer = grown;
    return grown;
  }
}

export function limitedBody(limit: number): LimitedBody {
  return new ChunksUpToLimit(limit);
}

/** Whether the Content-Length a request declares is already over the limit: refused before reading a byte. */
export function declaredTooLarge(contentLength: string | undefined, limit: number): boolean {
  return Number(contentLength ?? "0") > limit;
}

// A Node front end fails a request's body stream with an error carrying this mark when a middleware
// before it has already read the body, so that the Fetch handler answers that, not "could not be
// read". A registered symbol, so that the mark holds between two copies of the package.
const ALREADY_READ = Symbol.for("human-users.body-already-read");

export function bodyAlreadyReadError(): Error {
  return Object.defineProperty(new Error("request body was already read"), ALREADY_READ, { value: true });
}

function unreadable(cause: unknown): HttpProblem {
  const alreadyRead = typeof cause === "object" && cause !== null && (cause as { readonly [ALREADY_READ]?: boolean })[ALREADY_READ] === true;
  return alreadyRead ? problems.bodyAlreadyRead() : problems.unreadableBody();
}

/** A Fetch Request's body, read while counting bytes. */
export async function readFetchBody(request: Request, limit: number): Promise<Result<Uint8Array, HttpProblem>> {
  // Read (or taken by a reader) before this handler: the caller's mistake, told as the Node front end tells it.
  if (request.bodyUsed || request.body?.locked === true) return err(problems.bodyAlreadyRead());
  if (request.body === null) return ok(new Uint8Array());
  const body = limitedBody(limit);
  try {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!body.add(value)) {
        // Stop the sender rather than buffer a hostile body; a failed cancel changes nothing.
        await reader.cancel().catch(() => undefined);
        return err(problems.bodyTooLarge(limit));
      }
    }
    return ok(body.bytes());
  } catch (cause) {
    return err(unreadable(cause));
  }
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body as parsed JSON (any JSON value: the operation judges its shape), or why not. A member
 * given twice is refused, as protojson refuses it: `JSON.parse` would keep the last one silently.
 */
export function parseJsonBody(bytes: Uint8Array): Result<unknown, HttpProblem> {
  let text: string;
  let body: unknown;
  try {
    text = strictUtf8.decode(bytes);
    body = JSON.parse(text) as unknown;
  } catch {
    return err(problems.malformedJson());
  }
  const repeated = typeof body === "object" && body !== null ? repeatedMember(text, body) : undefined;
  return repeated === undefined ? ok(body) : err(problems.repeatedMember(repeated));
}
