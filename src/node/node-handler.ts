import type { IncomingMessage, ServerResponse } from "node:http";
import { createDispatcher } from "../http/dispatch.js";
import type { HttpAnswer } from "../http/http-exchange.js";
import type { Ports } from "../ports/index.js";
import type { NodeHandler, NodeHandlerOptions } from "./options.js";
import { readNodeBody } from "./read-node-body.js";
import { requestPath } from "./request-url.js";
import { writeAnswer, writeProblem } from "./write-answer.js";

function header(incoming: IncomingMessage, name: string): string | undefined {
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * Serves the same routes as `createFetchHandler`, with the same options and limits, on node:http's
 * IncomingMessage and ServerResponse directly: no Fetch Request or Response is built. Works as a
 * node:http listener and as Express or Fastify (middie) middleware. Creating it throws a RangeError
 * for a `maxBodyBytes` or `basePath` that cannot work.
 */
export function createNodeHandler(ports: Ports, options: NodeHandlerOptions): NodeHandler {
  const dispatch = createDispatcher(ports, options);
  async function serve(incoming: IncomingMessage, outgoing: ServerResponse, next: ((error?: unknown) => void) | undefined): Promise<void> {
    const path = requestPath(incoming);
    if (path.isErr()) {
      writeProblem(incoming, outgoing, path.error);
      return;
    }
    const answer: HttpAnswer = await dispatch({
      method: incoming.method ?? "GET",
      path: path.value,
      header: (name) => header(incoming, name),
      readBody: (limit) => readNodeBody(incoming, limit),
      request: incoming,
    });
    if (!answer.routed && next !== undefined) {
      next();
      return;
    }
    writeAnswer(incoming, outgoing, answer.status, answer.headers, answer.body);
  }

  return async (incoming, outgoing, next) => {
    try {
      await serve(incoming, outgoing, next);
    } catch {
      // The dispatch never rejects; this guards the writing (a socket node:http has given up on).
      outgoing.destroy();
    }
  };
}
