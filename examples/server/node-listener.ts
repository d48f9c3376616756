// Bridges node:http to a Fetch API handler: the request body is streamed into the Request (so the
// handler's size limit holds without buffering), and the Response is written back whole.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { FetchHandler } from "../../src/http/index.js";

function toRequest(incoming: IncomingMessage): Request {
  const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "localhost"}`);
  const headers = new Headers();
  for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) {
    headers.append(incoming.rawHeaders[i] ?? "", incoming.rawHeaders[i + 1] ?? "");
  }
  const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD";
  const body = hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : null;
  // `duplex: "half"` is what Node's fetch requires for a streamed request body.
  return new Request(url, { method: incoming.method ?? "GET", headers, body, duplex: "half" } as RequestInit);
}

async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  const body = new Uint8Array(await response.arrayBuffer());
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  outgoing.end(body);
}

export function nodeListener(handler: FetchHandler): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  return (incoming, outgoing) => {
    handler(toRequest(incoming))
      .then((response) => writeResponse(response, outgoing))
      .catch(() => {
        // The handler never rejects; this guards the bridge itself.
        if (!outgoing.headersSent) outgoing.writeHead(500);
        outgoing.end();
      });
  };
}
