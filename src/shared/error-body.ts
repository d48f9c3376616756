/** gRPC status codes the library answers with. */
export type StatusCode = 3 | 5 | 6 | 7 | 9 | 10 | 13 | 14 | 16;

/** The `@type` of the detail that carries an error's stable id. */
export const ERROR_DETAIL_TYPE = "type.googleapis.com/zitadel.v1.ErrorDetail";
/** The `@type` of the detail that lists field violations. */
export const BAD_REQUEST_TYPE = "type.googleapis.com/google.rpc.BadRequest";

/** The detail with the error's stable id (`USER-n4m6`, ...). */
export interface ErrorDetail {
  readonly "@type": typeof ERROR_DETAIL_TYPE;
  readonly id: string;
  readonly message: string;
}

/** One broken rule of one field. */
export interface FieldViolation {
  /** Dotted JSON path of the offending field, e.g. `profile.givenName` or `metadata[2].value`. */
  readonly field: string;
  readonly description: string;
}

/** The detail listing every field violation of a refused request. */
export interface BadRequestDetail {
  readonly "@type": typeof BAD_REQUEST_TYPE;
  readonly fieldViolations: readonly FieldViolation[];
}

/** One detail of an error body. */
export type ErrorBodyDetail = ErrorDetail | BadRequestDetail;

/** The error body, as ZITADEL writes it. Never carries a secret or a stack trace. */
export interface ErrorBody {
  readonly code: StatusCode;
  readonly message: string;
  readonly details: readonly ErrorBodyDetail[];
}

/** An error body with a stable id and an English message, and no field violations. */
export function errorBody(code: StatusCode, id: string, message: string): ErrorBody {
  return { code, message, details: [{ "@type": ERROR_DETAIL_TYPE, id, message }] };
}

/** Field violations listed in one body unless the host configures another number. */
export const DEFAULT_MAX_FIELD_VIOLATIONS = 100;

/**
 * A code-3 body listing the violations, at most `maxListed` of them. The message is the first
 * violation's text and, when there are more, how many; when some were left out, it says so.
 */
export function invalidArgument(id: string, violations: readonly FieldViolation[], maxListed: number = DEFAULT_MAX_FIELD_VIOLATIONS): ErrorBody {
  const leftOut = violations.length > maxListed;
  const listed = leftOut ? violations.slice(0, maxListed) : violations;
  const [first] = listed;
  const head = first === undefined ? "invalid request" : `${first.field}: ${first.description}`;
  const others = listed.length - 1;
  const count = `${others} more violation${others === 1 ? "" : "s"}`;
  const message = leftOut
    ? `${head} (${others > 0 ? `and ${count} listed; ` : ""}more were left out)`
    : others > 0
      ? `${head} (and ${count})`
      : head;
  return {
    code: 3,
    message,
    details: [
      { "@type": ERROR_DETAIL_TYPE, id, message },
      { "@type": BAD_REQUEST_TYPE, fieldViolations: listed },
    ],
  };
}
