import type { IncomingMessage, ServerResponse } from "node:http";
import type { Result } from "neverthrow";
import { createDispatcher } from "../http/dispatch.js";
import type { HttpRequestParts } from "../http/http-exchange.js";
import type { HttpProblem } from "../http/wire-error.js";
import type { Ports } from "../ports/index.js";
import type { NodeHandler, NodeHandlerOptions } from "./options.js";
import { readNodeBody } from "./read-node-body.js";
import { requestPath } from "./request-url.js";
import { writeAnswer, writeProblem } from "./write-answer.js";

/** An IncomingMessage as the dispatcher reads it; methods on a class, so that a request makes no closures. */
class NodeRequestParts implements HttpRequestParts<IncomingMessage> {
  constructor(
    readonly request: IncomingMessage,
    readonly method: string,
    readonly path: string,
  ) {}

  header(name: string): string | undefined {
    const value = this.request.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  readBody(limit: number): Promise<Result<Uint8Array, HttpProblem>> {
    return readNodeBody(this.request, limit);
  }
}

/**
 * Serves the same routes as `createFetchHandler`, with the same options and limits, on node:http's
 * IncomingMessage and ServerResponse directly: no Fetch Request or Response is built. Works as a
 * node:http listener and as Express or Fastify (middie) middleware. Creating it throws a RangeError
 * for a `maxBodyBytes`, `basePath` or `origin` that cannot work.
 */
export function createNodeHandler(ports: Ports, options: NodeHandlerOptions): NodeHandler {
  const dispatch = createDispatcher(ports, options);
  async function serve(incoming: IncomingMessage, outgoing: ServerResponse, next: ((error?: unknown) => void) | undefined): Promise<void> {
    const path = requestPath(incoming);
    if (path.isErr()) {
      writeProblem(incoming, outgoing, path.error);
      return;
    }
    const answer = await dispatch(new NodeRequestParts(incoming, incoming.method ?? "GET", path.value));
    if (!answer.routed && next !== undefined) {
      next();
      return;
    }
    writeAnswer(incoming, outgoing, answer.status, answer.headers, answer.body);
  }

  return (incoming, outgoing, next) =>
    // The dispatch never rejects; this guards the writing (a socket node:http has given up on).
    serve(incoming, outgoing, next).catch(() => {
      outgoing.destroy();
    });
}
