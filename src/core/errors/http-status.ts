import type { StatusCode } from "../../shared/error-body.js";

const HTTP_STATUS: Readonly<Record<StatusCode, number>> = {
  3: 400,
  5: 404,
  6: 409,
  7: 403,
  9: 400,
  10: 409,
  13: 500,
  14: 503,
  16: 401,
};

/** The HTTP status for a gRPC status code, for hosts that serve the operations over HTTP. */
export function httpStatus(code: number): number {
  return HTTP_STATUS[code as StatusCode] ?? 500;
}
