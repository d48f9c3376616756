import type { Requester } from "../ports/authorizer.js";

/**
 * Who is calling: a requester, or `undefined` for a request that carries no valid credentials
 * (answered 401 with code 16). The host decides how: bearer tokens, session cookies, mTLS, ...
 * `R` is the request as the front end has it: a Fetch `Request`, or Node's `IncomingMessage`.
 */
export type Authenticate<R = Request> = (request: R) => Requester | undefined | Promise<Requester | undefined>;

/** The options every front end takes; only the request `authenticate` is given differs. */
export interface HandlerOptions<R> {
  readonly authenticate: Authenticate<R>;
  /** Public base URL for links in responses; default: the configuration's `origin`. Never taken from the request's Host. Checked as `config.origin` is: creating a handler with a bad one throws a RangeError. */
  readonly origin?: string;
  /** Largest request body read, in bytes; default 1 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * A path prefix the routes are served under, such as `/users-api` (no trailing slash); default
   * none. Requests outside it are not routes of this handler.
   */
  readonly basePath?: string;
}

/** `createFetchHandler`'s options: how it authenticates a Fetch `Request`, builds links and bounds bodies. */
export type FetchHandlerOptions = HandlerOptions<Request>;

/** A Fetch API handler: the shape Bun.serve, Deno.serve, edge runtimes and most frameworks take. */
export type FetchHandler = (request: Request) => Promise<Response>;

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
