import { err, ok, type Result } from "neverthrow";
import { concatBytes } from "../shared/bytes.js";
import { problems, type HttpProblem } from "./wire-error.js";

/** Reads the body while counting bytes, so a body without (or lying in) Content-Length is cut off at the limit too. */
async function readLimited(request: Request, limit: number): Promise<Result<Uint8Array, HttpProblem>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return err(problems.bodyTooLarge(limit));
  if (request.body === null) return ok(new Uint8Array());
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        // Stop the sender rather than buffer a hostile body; a failed cancel changes nothing.
        await reader.cancel().catch(() => undefined);
        return err(problems.bodyTooLarge(limit));
      }
      chunks.push(value);
    }
  } catch {
    return err(problems.unreadableBody());
  }
  return ok(concatBytes(...chunks));
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

function parseJson(bytes: Uint8Array): Result<unknown, HttpProblem> {
  try {
    return ok(JSON.parse(strictUtf8.decode(bytes)) as unknown);
  } catch {
    return err(problems.malformedJson());
  }
}

/** The request body as parsed JSON (any JSON value: the operation judges its shape), or why not. */
export async function readJsonBody(request: Request, limit: number): Promise<Result<unknown, HttpProblem>> {
  const bytes = await readLimited(request, limit);
  return bytes.andThen(parseJson);
}
