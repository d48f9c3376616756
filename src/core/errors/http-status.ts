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

/**
 * The codes the library never answers, as ZITADEL's gateway (grpc-gateway's HTTPStatusFromCode)
 * maps them, for hosts that pass their own errors through: OK, cancelled, unknown, deadline
 * exceeded, resource exhausted, out of range, unimplemented, data loss.
 */
const OTHER_HTTP_STATUS: ReadonlyMap<number, number> = new Map([
  [0, 200],
  [1, 499],
  [2, 500],
  [4, 504],
  [8, 429],
  [11, 400],
  [12, 501],
  [15, 500],
]);

/** The HTTP status for a gRPC status code, for hosts that serve the operations over HTTP; 500 for a code gRPC does not have. */
export function httpStatus(code: number): number {
  return HTTP_STATUS[code as StatusCode] ?? OTHER_HTTP_STATUS.get(code) ?? 500;
}
