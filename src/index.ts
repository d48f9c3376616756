// Public surface of human-users. Every name here is part of the contract (SPEC section 1).
export * from "./core/errors/index.js";
export type * from "./core/json.js";
export * from "./ports/index.js";
export * from "./passwords/index.js";
