import type { Result } from "neverthrow";
import type { HttpProblem } from "./wire-error.js";

/** A request's headers, looked up by lower-case name. */
export interface RequestHeaders {
  /** The header's value; several of one name joined with ", ". */
  header(name: string): string | undefined;
}

/**
 * A request as every front end hands it to the one dispatcher: method, path, headers, and the body
 * read on demand (only once the request has passed the checks that need no body), under a limit.
 */
export interface HttpRequestParts<R> extends RequestHeaders {
  readonly method: string;
  /** The URL's path, percent-escapes as sent, no query. */
  readonly path: string;
  readBody(limit: number): Promise<Result<Uint8Array, HttpProblem>>;
  /** The front end's own request, for `authenticate`. */
  readonly request: R;
}

/** The dispatcher's answer, for the front end to write out. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON text. */
  readonly body: string;
  /** False when this handler has no route at the path: middleware passes the request on. */
  readonly routed: boolean;
}
