export * from "../../shared/error-body.js";
export { httpStatus } from "./http-status.js";
