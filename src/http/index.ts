/**
 * Every function as an HTTP route on the Fetch API: `createFetchHandler`. See docs/http-and-frameworks.md.
 *
 * @module human-users/http
 */
export { createFetchHandler } from "./fetch-handler.js";
export type { Authenticate, FetchHandler, FetchHandlerOptions, HandlerOptions } from "./options.js";
