import type { IncomingMessage } from "node:http";
import { err, ok, type Result } from "neverthrow";
import { limitedBody } from "../http/read-json-body.js";
import { problems, type HttpProblem } from "../http/wire-error.js";

/**
 * An IncomingMessage's body, read while counting bytes. Over the limit it stops reading (the answer
 * then closes the connection); a client that goes away mid-body ends the read with a refusal, and
 * nothing after it runs.
 */
export function readNodeBody(incoming: IncomingMessage, limit: number): Promise<Result<Uint8Array, HttpProblem>> {
  // A body parser mounted before this handler has taken the body; waiting for it would never end.
  if (incoming.readableDidRead || incoming.readableEnded) return Promise.resolve(err(problems.bodyAlreadyRead()));
  return new Promise((resolve) => {
    const body = limitedBody(limit);
    let settled = false;
    const settle = (result: Result<Uint8Array, HttpProblem>): void => {
      if (settled) return;
      settled = true;
      incoming.off("data", onData);
      resolve(result);
    };
    function onData(chunk: Buffer): void {
      if (body.add(chunk)) return;
      incoming.pause();
      settle(err(problems.bodyTooLarge(limit)));
    }
    incoming.on("data", onData);
    incoming.once("end", () => settle(ok(body.bytes())));
    // Kept after settling: an error with no listener would be thrown. The refusal is built only
    // when it answers: every request closes after its end.
    incoming.on("error", () => {
      if (!settled) settle(err(problems.unreadableBody()));
    });
    // Closed before its end: the client went away.
    incoming.once("close", () => {
      if (!settled) settle(err(problems.unreadableBody()));
    });
  });
}
