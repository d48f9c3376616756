import type { OperationContext } from "../core/context.js";
import type { Requester } from "../ports/authorizer.js";
import type { Ports } from "../ports/index.js";
import { connectDialect, type Dialect } from "./dialect.js";
import { isIdentityEncoding, isJsonContentType } from "./media-type.js";
import { DEFAULT_MAX_BODY_BYTES, type FetchHandler, type FetchHandlerOptions } from "./options.js";
import { readJsonBody } from "./read-json-body.js";
import { dialectForUnknownPath, ROUTES } from "./routes.js";
import { problems, type HttpProblem } from "./wire-error.js";

/** The organization header of the reference server (gRPC metadata and HTTP alike). */
const ORG_HEADER = "x-zitadel-orgid";

function jsonResponse(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Response {
  // Bodies can carry verification codes: no cache may keep them.
  const head = { "content-type": "application/json", "cache-control": "no-store", ...headers };
  return new Response(JSON.stringify(body), { status, headers: head });
}

function problemResponse(dialect: Dialect, problem: HttpProblem): Response {
  return jsonResponse(problem.status, dialect.errorJson(problem.error), problem.headers);
}

/** Refusals that need only the request line and headers, cheapest first. */
function refusalByHeaders(request: Request, dialect: Dialect): HttpProblem | undefined {
  if (request.method !== "POST") return problems.methodNotAllowed(request.method);
  const encoding = request.headers.get("content-encoding");
  if (!isIdentityEncoding(encoding)) return problems.unsupportedEncoding(encoding ?? "");
  const contentType = request.headers.get("content-type");
  if (!isJsonContentType(contentType)) return problems.unsupportedMediaType(contentType);
  return dialect.checkHeaders(request.headers);
}

function operationContext(request: Request, requester: Requester, origin: string | undefined): OperationContext {
  const orgId = request.headers.get(ORG_HEADER)?.trim() ?? "";
  return {
    requester,
    ...(orgId === "" ? {} : { orgId }),
    ...(origin === undefined ? {} : { origin }),
  };
}

function logFailure(ports: Ports, path: string, cause: unknown): void {
  try {
    ports.logger?.error("http: request failed", { path, cause });
  } catch {
    // A failing logger must not turn an error answer into a rejected promise.
  }
}

/**
 * Serves operations A and B over HTTP: REST on the reference server's paths and the Connect
 * protocol (unary, JSON) on its RPC paths. Uses only the Fetch API, so it runs on any runtime that
 * has it. The handler never rejects: every failure is an error response. Creating it throws a
 * RangeError only for a `maxBodyBytes` that is not a whole number of bytes.
 */
export function createFetchHandler(ports: Ports, options: FetchHandlerOptions): FetchHandler {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // A NaN or negative limit would silently read without bound: refuse the setting at start-up.
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError("maxBodyBytes must be a whole number of bytes, 0 or more");

  async function serve(request: Request, path: string): Promise<Response> {
    const route = ROUTES.get(path);
    if (route === undefined) {
      const dialect = dialectForUnknownPath(path);
      return problemResponse(dialect, problems.unknownRoute(path, dialect === connectDialect));
    }
    const { dialect, operation } = route;
    const refusal = refusalByHeaders(request, dialect);
    if (refusal !== undefined) return problemResponse(dialect, refusal);
    const requester = await options.authenticate(request);
    if (requester === undefined) return problemResponse(dialect, problems.unauthenticated());
    const body = await readJsonBody(request, limit);
    if (body.isErr()) return problemResponse(dialect, body.error);
    const result = await operation(ports, body.value, operationContext(request, requester, options.origin));
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
