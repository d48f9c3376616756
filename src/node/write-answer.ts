import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { HttpProblem } from "../http/wire-error.js";

/**
 * Writes a whole answer. An answer given before the request's body has all arrived (refused unread,
 * or over the size limit) closes the connection, so that the next request on it never waits behind
 * the rest of that body; one that comes too late for the response (already started) cuts it off.
 */
export function writeAnswer(incoming: IncomingMessage, outgoing: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: string | Uint8Array): void {
  if (outgoing.headersSent) {
    outgoing.destroy();
    return;
  }
  const length = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  const head: OutgoingHttpHeaders = { ...headers, "content-length": length };
  if (!incoming.complete) head["connection"] = "close";
  outgoing.writeHead(status, head);
  outgoing.end(body);
}

/** A refusal as the library's REST error JSON. */
export function writeProblem(incoming: IncomingMessage, outgoing: ServerResponse, refused: HttpProblem): void {
  const headers = { "content-type": "application/json", "cache-control": "no-store", ...refused.headers };
  writeAnswer(incoming, outgoing, refused.status, headers, JSON.stringify(refused.error));
}
