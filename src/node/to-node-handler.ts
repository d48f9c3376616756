import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";
import { err, ok, type Result } from "neverthrow";
import type { FetchHandler } from "../http/options.js";
import { bodyAlreadyReadError } from "../http/read-json-body.js";
import { isUnrouted } from "../http/unrouted.js";
import { problems, type HttpProblem } from "../http/wire-error.js";
import type { NodeHandler } from "./options.js";
import { requestUrl } from "./request-url.js";
import { arrivedWhileClosing, writeAnswer, writeProblem } from "./write-answer.js";

/**
 * Methods the Fetch API refuses to build a Request with. Of them node:http hands a listener only
 * TRACE: CONNECT goes to its own event, and TRACK does not parse.
 */
const FETCH_FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/**
 * The body as a stream that reads the IncomingMessage only when the handler asks for it (high-water
 * mark 0): a request the handler does not take stays unread for the next middleware. Cancelling
 * stops reading without destroying the socket, so that the refusal can still be answered.
 */
function lazyBody(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  let chunks: AsyncIterator<Buffer> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (chunks === undefined) {
          // A body parser mounted before this handler has taken the body: an error, not an empty body.
          if (incoming.readableDidRead || incoming.readableEnded) throw bodyAlreadyReadError();
          chunks = incoming[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        }
        const next = await chunks.next();
        if (next.done === true) controller.close();
        else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
      },
    },
    { highWaterMark: 0 },
  );
}

function headersOf(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] ?? "", raw[i + 1] ?? "");
  return headers;
}

function fetchRequest(incoming: IncomingMessage, url: URL): Result<Request, HttpProblem> {
  const method = incoming.method ?? "GET";
  // The handler still routes such a method, as createNodeHandler does (405 on its paths, `next()`
  // elsewhere): built as a GET that shows the real method. TRACE must not carry a body; one sent stays unread.
  const forbidden = FETCH_FORBIDDEN_METHODS.has(method);
  try {
    const body = forbidden || method === "GET" || method === "HEAD" ? null : lazyBody(incoming);
    // `duplex: "half"` is what Node's fetch requires for a streamed request body.
    const request = new Request(url, { method: forbidden ? "GET" : method, headers: headersOf(incoming), body, duplex: "half" } as RequestInit);
    return ok(forbidden ? Object.defineProperty(request, "method", { value: method }) : request);
  } catch {
    return err(problems.unreadableBody());
  }
}

/** The response's headers for node:http; Set-Cookie kept as several values. */
function nodeHeaders(response: Response): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  return headers;
}

/**
 * A Fetch handler (such as `createFetchHandler`'s) as a node:http listener and Express or Fastify
 * middleware. The body is streamed to the handler as it reads it; the answer is written whole.
 * Given `next`, a request `createFetchHandler` has no route for is passed on untouched. A TRACE,
 * which the Fetch API cannot build, reaches the handler as a bodiless GET Request whose `method` is "TRACE".
 */
export function toNodeHandler(handler: FetchHandler): NodeHandler {
  return async (incoming, outgoing, next) => {
    // Pipelined behind a body refused unread: never run, never answered (the connection is closing).
    if (arrivedWhileClosing(incoming)) return;
    const request = requestUrl(incoming).andThen((url) => fetchRequest(incoming, url));
    if (request.isErr()) {
      writeProblem(incoming, outgoing, request.error);
      return;
    }
    try {
      const response = await handler(request.value);
      if (next !== undefined && isUnrouted(response) && !request.value.bodyUsed) {
        next();
        return;
      }
      const body = new Uint8Array(await response.arrayBuffer());
      writeAnswer(incoming, outgoing, response.status, nodeHeaders(response), body);
    } catch {
      // Only a handler that rejects gets here (createFetchHandler's never does).
      writeProblem(incoming, outgoing, problems.internal());
    }
  };
}
