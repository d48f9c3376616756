export { createNodeHandler } from "./node-handler.js";
export { toNodeHandler } from "./to-node-handler.js";
export type { NodeHandler, NodeHandlerOptions } from "./options.js";
