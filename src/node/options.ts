import type { IncomingMessage, ServerResponse } from "node:http";
import type { HandlerOptions } from "../http/options.js";

/** `createFetchHandler`'s options; `authenticate` gets the IncomingMessage (Express's or Fastify's raw request). */
export type NodeHandlerOptions = HandlerOptions<IncomingMessage>;

/**
 * A node:http "request" listener, and Express/Fastify (middie) middleware: given `next`, a request
 * for a path it has no route for is passed on to it untouched. The promise never rejects.
 */
export type NodeHandler = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => Promise<void>;
