export * from "./error-body.js";
export { httpStatus } from "./http-status.js";
