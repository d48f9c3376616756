/**
 * Every function as an HTTP route on Node's `http` module (and Express, Fastify, ...): `createNodeHandler`, or `toNodeHandler` around a Fetch handler. See docs/http-and-frameworks.md.
 *
 * @module human-users/node
 */
export { createNodeHandler } from "./node-handler.js";
export { toNodeHandler } from "./to-node-handler.js";
export type { NodeHandler, NodeHandlerOptions } from "./options.js";
