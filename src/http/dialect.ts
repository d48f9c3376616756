import { httpStatus } from "../core/errors/index.js";
import { connectErrorBody, connectStatus } from "./connect-error.js";
import type { RequestHeaders } from "./http-exchange.js";
import { problems, type HttpProblem, type WireCode, type WireError } from "./wire-error.js";

/**
 * How one of the two wire styles frames errors: REST (ZITADEL's gateway JSON) or the
 * Connect protocol's unary JSON form. Success bodies are the same JSON in both.
 */
export interface Dialect {
  errorStatus(code: WireCode): number;
  errorJson(error: WireError): unknown;
  /** A refusal this style makes from its own headers before the body is read. */
  checkHeaders(request: RequestHeaders): HttpProblem | undefined;
  /**
   * Whether a body of nothing (or only white space) is the empty request `{}`: so in ZITADEL's
   * gateway, whose JSON decoder's end of input is no error; Connect refuses a zero-length payload.
   */
  readonly blankBodyIsEmpty: boolean;
}

export const restDialect: Dialect = {
  errorStatus: httpStatus,
  errorJson: (error) => error,
  checkHeaders: () => undefined,
  blankBodyIsEmpty: true,
};

/** Connect clients send `Connect-Protocol-Version: 1`; it is optional so that curl works too. */
export const connectDialect: Dialect = {
  errorStatus: connectStatus,
  errorJson: connectErrorBody,
  checkHeaders(request) {
    const version = request.header("connect-protocol-version");
    return version === undefined || version === "1" ? undefined : problems.protocolVersion(version);
  },
  blankBodyIsEmpty: false,
};
