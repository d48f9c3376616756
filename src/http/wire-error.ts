import { ERROR_DETAIL_TYPE, type ErrorBodyDetail, type StatusCode } from "../core/errors/index.js";

/**
 * gRPC codes the HTTP layer answers with: the operations' own, plus 8 (a body over the limit) and
 * 12 (a method or encoding this server does not implement), which only the transport can meet.
 */
export type WireCode = StatusCode | 8 | 12;

/** An error in the shape of ZITADEL's error body, with the transport's extra codes allowed. */
export interface WireError {
  readonly code: WireCode;
  readonly message: string;
  readonly details: readonly ErrorBodyDetail[];
}

/**
 * A request refused by the HTTP layer before any operation runs. `status` is fixed by what went
 * wrong (413, 415, ...) rather than derived from the code, in both REST and Connect answers.
 */
export interface HttpProblem {
  readonly status: number;
  readonly error: WireError;
  readonly headers?: Readonly<Record<string, string>>;
}

export function problem(status: number, code: WireCode, id: string, message: string, headers?: Readonly<Record<string, string>>): HttpProblem {
  const error: WireError = { code, message, details: [{ "@type": ERROR_DETAIL_TYPE, id, message }] };
  return headers === undefined ? { status, error } : { status, error, headers };
}

/** A caller's value echoed in a message: quoted, and cut short so a huge header cannot bloat the answer. */
export function quoted(value: string): string {
  return JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}...` : value);
}

export const problems = {
  /** REST answers code 5 as ZITADEL's gateway does; Connect's word for 404 is `unimplemented`. */
  unknownRoute: (path: string, connectShaped: boolean): HttpProblem =>
    problem(404, connectShaped ? 12 : 5, "HTTP-r0ut", `no operation at ${quoted(path)}`),
  methodNotAllowed: (method: string, allowed: readonly string[] = ["POST"]): HttpProblem =>
    problem(405, 12, "HTTP-m3th", `method ${quoted(method)} is not allowed here; use ${allowed.join(" or ")}`, { allow: allowed.join(", ") }),
  unsupportedMediaType: (contentType: string | undefined): HttpProblem =>
    problem(415, 3, "HTTP-m3d1", `content type ${contentType === undefined ? "(none)" : quoted(contentType)} is not supported; send application/json`),
  unsupportedEncoding: (encoding: string): HttpProblem =>
    problem(415, 12, "HTTP-3nc0", `content encoding ${quoted(encoding)} is not supported; send the body uncompressed`, { "accept-encoding": "identity" }),
  protocolVersion: (version: string): HttpProblem =>
    problem(400, 3, "HTTP-v3rs", `connect protocol version ${quoted(version)} is not supported; use 1`),
  bodyTooLarge: (limit: number): HttpProblem =>
    problem(413, 8, "HTTP-s1ze", `request body is larger than ${limit} bytes`),
  unreadableBody: (): HttpProblem => problem(400, 3, "HTTP-r34d", "request body could not be read"),
  /** A Node request whose body a middleware before this handler (a body parser) has already read. */
  bodyAlreadyRead: (): HttpProblem => problem(400, 3, "HTTP-r34d", "request body was already read by another handler before this one"),
  malformedJson: (): HttpProblem => problem(400, 3, "HTTP-js0n", "request body is not valid UTF-8 JSON"),
  /** A member given twice (protojson's "duplicate field"); the path names member names only, never a value. */
  repeatedMember: (path: string): HttpProblem => problem(400, 3, "HTTP-tw1c", `request body gives ${path} twice; send each member once`),
  unauthenticated: (): HttpProblem => problem(401, 16, "HTTP-4uth", "authentication required"),
  internal: (): HttpProblem => problem(500, 13, "HTTP-1ntl", "internal error"),
};
