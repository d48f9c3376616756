export { createFetchHandler } from "./fetch-handler.js";
export type { Authenticate, FetchHandler, FetchHandlerOptions } from "./options.js";
