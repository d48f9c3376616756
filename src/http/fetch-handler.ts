import { ok } from "neverthrow";
import type { OperationContext } from "../core/context.js";
import type { Requester } from "../ports/authorizer.js";
import type { Ports } from "../ports/index.js";
import { connectDialect, type Dialect } from "./dialect.js";
import { isIdentityEncoding, isJsonContentType } from "./media-type.js";
import { DEFAULT_MAX_BODY_BYTES, type FetchHandler, type FetchHandlerOptions } from "./options.js";
import { readJsonBody } from "./read-json-body.js";
import { matchRoute } from "./route-match.js";
import { dialectForUnknownPath, type Route } from "./routes.js";
import { problems, type HttpProblem } from "./wire-error.js";

/** ZITADEL's organization header (gRPC metadata and HTTP alike). */
const ORG_HEADER = "x-zitadel-orgid";

function jsonResponse(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Response {
  // Bodies can carry verification codes: no cache may keep them.
  const head = { "content-type": "application/json", "cache-control": "no-store", ...headers };
  return new Response(JSON.stringify(body), { status, headers: head });
}

function problemResponse(dialect: Dialect, problem: HttpProblem): Response {
  return jsonResponse(problem.status, dialect.errorJson(problem.error), problem.headers);
}

/** Refusals that need only the request line and headers, cheapest first; a GET has no body to judge. */
function refusalByHeaders(request: Request, route: Route): HttpProblem | undefined {
  if (route.method === "GET") return undefined;
  const { dialect } = route;
  const encoding = request.headers.get("content-encoding");
  if (!isIdentityEncoding(encoding)) return problems.unsupportedEncoding(encoding ?? "");
  const contentType = request.headers.get("content-type");
  if (!isJsonContentType(contentType)) return problems.unsupportedMediaType(contentType);
  return dialect.checkHeaders(request.headers);
}

function operationContext(request: Request, requester: Requester | undefined, origin: string | undefined): OperationContext {
  const orgId = request.headers.get(ORG_HEADER)?.trim() ?? "";
  return {
    ...(requester === undefined ? {} : { requester }),
    ...(orgId === "" ? {} : { orgId }),
    ...(origin === undefined ? {} : { origin }),
  };
}

/**
 * The body with the path's values set, as ZITADEL's gateway merges them (the path
 * wins). A body that is not an object is left as it is, for the operation to refuse.
 */
function withPathValues(body: unknown, params: Readonly<Record<string, string>>): unknown {
  if (Object.keys(params).length === 0 || body === null || typeof body !== "object" || Array.isArray(body)) return body;
  return { ...(body as Readonly<Record<string, unknown>>), ...params };
}

function logFailure(ports: Ports, path: string, cause: unknown): void {
  try {
    ports.logger?.error({ path, err: cause }, "human-users: HTTP request failed");
  } catch {
    // A failing logger must not turn an error answer into a rejected promise.
  }
}

/**
 * Serves the operations over HTTP: REST on ZITADEL's paths (GET and POST, with
 * `{userId}` taken from the path) and the Connect protocol (unary, JSON) on its RPC paths. Uses only the Fetch API, so it runs on any runtime that
 * has it. The handler never rejects: every failure is an error response. Creating it throws a
 * RangeError only for a `maxBodyBytes` that is not a whole number of bytes.
 */
export function createFetchHandler(ports: Ports, options: FetchHandlerOptions): FetchHandler {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // A NaN or negative limit would silently read without bound: refuse the setting at start-up.
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError("maxBodyBytes must be a whole number of bytes, 0 or more");

  async function serve(request: Request, path: string): Promise<Response> {
    const match = matchRoute(request.method, path);
    if (match.kind === "none") {
      const dialect = dialectForUnknownPath(path);
      return problemResponse(dialect, problems.unknownRoute(path, dialect === connectDialect));
    }
    if (match.kind === "other-methods") return problemResponse(match.route.dialect, problems.methodNotAllowed(request.method, match.allowed));
    const { route, params } = match;
    const { dialect, operation } = route;
    const refusal = refusalByHeaders(request, route);
    if (refusal !== undefined) return problemResponse(dialect, refusal);
    const requester = await options.authenticate(request);
    // A code is its own proof: a person who is not signed in redeems it without credentials.
    if (requester === undefined && route.proof !== true) return problemResponse(dialect, problems.unauthenticated());
    const body = route.method === "GET" ? ok<unknown, HttpProblem>({}) : await readJsonBody(request, limit);
    if (body.isErr()) return problemResponse(dialect, body.error);
    const result = await operation(ports, withPathValues(body.value, params), operationContext(request, requester, options.origin));
    return result.match(
      (response) => jsonResponse(200, response),
      (error) => jsonResponse(dialect.errorStatus(error.code), dialect.errorJson(error)),
    );
  }

  return async (request) => {
    const path = new URL(request.url).pathname;
    try {
      return await serve(request, path);
    } catch (cause) {
      // Only a throwing `authenticate` (or a broken runtime) gets here; the operations never throw.
      logFailure(ports, path, cause);
      return problemResponse(dialectForUnknownPath(path), problems.internal());
    }
  };
}
