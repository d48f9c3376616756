import type { Requester } from "../ports/authorizer.js";

/**
 * Who is calling: a requester, or `undefined` for a request that carries no valid credentials
 * (answered 401 with code 16). The host decides how: bearer tokens, session cookies, mTLS, ...
 */
export type Authenticate = (request: Request) => Requester | undefined | Promise<Requester | undefined>;

/** How `createFetchHandler` authenticates callers, builds links and bounds bodies. */
export interface FetchHandlerOptions {
  readonly authenticate: Authenticate;
  /** Public base URL for links in responses; default: the configuration's `origin`. Never taken from the request's Host. */
  readonly origin?: string;
  /** Largest request body read, in bytes; default 1 MiB. */
  readonly maxBodyBytes?: number;
}

/** A Fetch API handler: the shape Bun.serve, Deno.serve, edge runtimes and most frameworks take. */
export type FetchHandler = (request: Request) => Promise<Response>;

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
