// Bridges node:http to a Fetch API handler: the request goes in as a streamed Request, the Response
// is written back whole. Nothing a client sends makes it throw: a request the Fetch API cannot
// represent gets the bridge's own JSON error, and the server goes on to the next one.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { FetchHandler } from "../../src/http/index.js";
import { refusalContent, refusals, type BridgeRefusal } from "./bridge-refusals.js";
import { toFetchRequest } from "./node-request.js";

/**
 * Once the body is streamed into a Request, node:http no longer skips what the handler left unread
 * (a body refused before reading, or over the size limit), and the next request on the connection
 * would wait behind it: an answer given before the body was read to its end closes the connection.
 */
function closingIfUnread(incoming: IncomingMessage, request: Request): OutgoingHttpHeaders {
  return request.body !== null && !incoming.readableEnded ? { connection: "close" } : {};
}

function writeAnswer(outgoing: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: Uint8Array): void {
  if (outgoing.headersSent) {
    // Too late for another answer: cut the connection, so that the client sees this one is broken.
    outgoing.destroy();
    return;
  }
  outgoing.writeHead(status, { ...headers, "content-length": String(body.byteLength) });
  outgoing.end(body);
}

function writeRefusal(outgoing: ServerResponse, refused: BridgeRefusal, extra: OutgoingHttpHeaders = {}): void {
  const { body, headers } = refusalContent(refused);
  writeAnswer(outgoing, refused.status, { ...headers, ...extra }, body);
}

async function writeResponse(response: Response, outgoing: ServerResponse, extra: OutgoingHttpHeaders): Promise<void> {
  const body = new Uint8Array(await response.arrayBuffer());
  writeAnswer(outgoing, response.status, { ...Object.fromEntries(response.headers), ...extra }, body);
}

export function nodeListener(handler: FetchHandler): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  return (incoming, outgoing) => {
    const request = toFetchRequest(incoming);
    if (request.isErr()) {
      // No body was streamed: node:http skips it, and the connection serves the next request.
      writeRefusal(outgoing, request.error);
      return;
    }
    handler(request.value)
      .then((response) => writeResponse(response, outgoing, closingIfUnread(incoming, request.value)))
      // The handler never rejects; this guards the bridge itself.
      .catch(() => writeRefusal(outgoing, refusals.internal(), closingIfUnread(incoming, request.value)));
  };
}
