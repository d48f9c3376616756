import type { Ports } from "../ports/index.js";
import { createDispatcher } from "./dispatch.js";
import type { FetchHandler, FetchHandlerOptions } from "./options.js";
import { readFetchBody } from "./read-json-body.js";
import { markUnrouted } from "./unrouted.js";

/**
 * Serves the operations over HTTP: REST on ZITADEL's paths (GET and POST, with
 * `{userId}` taken from the path) and the Connect protocol (unary, JSON) on its RPC paths, under
 * `basePath`, and `GET {basePath}/healthz`. Uses only the Fetch API, so it runs on any runtime that
 * has it. The handler never rejects: every failure is an error response. Creating it throws a
 * RangeError only for a `maxBodyBytes` that is not a whole number of bytes, a malformed `basePath`, or an `origin` links cannot start with.
 */
export function createFetchHandler(ports: Ports, options: FetchHandlerOptions): FetchHandler {
  const dispatch = createDispatcher(ports, options);
  return async (request) => {
    const answer = await dispatch({
      method: request.method,
      path: new URL(request.url).pathname,
      header: (name) => request.headers.get(name) ?? undefined,
      readBody: (limit) => readFetchBody(request, limit),
      request,
    });
    // A copy: some runtimes' Response (@hono/node-server's) keeps and extends the object it is given.
    const response = new Response(answer.body, { status: answer.status, headers: { ...answer.headers } });
    return answer.routed ? response : markUnrouted(response);
  };
}
