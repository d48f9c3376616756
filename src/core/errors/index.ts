export * from "../../shared/error-body.js";
export { httpStatus } from "./http-status.js";
export { errorIds, type ErrorId } from "./user-errors.js";
