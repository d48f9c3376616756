import { err, ok, type Result } from "neverthrow";
import { concatBytes } from "../shared/bytes.js";
import { problems, type HttpProblem } from "./wire-error.js";

/** A body's chunks gathered up to a limit, so that a body without (or lying in) Content-Length is cut off there too. */
export interface LimitedBody {
  /** Keeps `chunk`; false once the body is over the limit (the caller stops reading then). */
  add(chunk: Uint8Array): boolean;
  bytes(): Uint8Array;
}

/** Methods on a class, so that a request's body makes no closures. */
class ChunksUpToLimit implements LimitedBody {
  private readonly chunks: Uint8Array[] = [];
  private total = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Uint8Array): boolean {
    this.total += chunk.byteLength;
    if (this.total > this.limit) return false;
    this.chunks.push(chunk);
    return true;
  }

  bytes(): Uint8Array {
    return this.chunks.length === 1 ? (this.chunks[0] ?? new Uint8Array()) : concatBytes(...this.chunks);
  }
}

export function limitedBody(limit: number): LimitedBody {
  return new ChunksUpToLimit(limit);
}

/** Whether the Content-Length a request declares is already over the limit: refused before reading a byte. */
export function declaredTooLarge(contentLength: string | undefined, limit: number): boolean {
  return Number(contentLength ?? "0") > limit;
}

/** A Fetch Request's body, read while counting bytes. */
export async function readFetchBody(request: Request, limit: number): Promise<Result<Uint8Array, HttpProblem>> {
  if (request.body === null) return ok(new Uint8Array());
  const reader = request.body.getReader();
  const body = limitedBody(limit);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!body.add(value)) {
        // Stop the sender rather than buffer a hostile body; a failed cancel changes nothing.
        await reader.cancel().catch(() => undefined);
        return err(problems.bodyTooLarge(limit));
      }
    }
  } catch {
    return err(problems.unreadableBody());
  }
  return ok(body.bytes());
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The body as parsed JSON (any JSON value: the operation judges its shape), or why not. */
export function parseJsonBody(bytes: Uint8Array): Result<unknown, HttpProblem> {
  try {
    return ok(JSON.parse(strictUtf8.decode(bytes)) as unknown);
  } catch {
    return err(problems.malformedJson());
  }
}
