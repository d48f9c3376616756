export { createFetchHandler } from "./fetch-handler.js";
export type { Authenticate, FetchHandler, FetchHandlerOptions, HandlerOptions } from "./options.js";
