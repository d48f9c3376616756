// The one place requests are routed and answered. Each front end (Fetch, Node) turns its own
// request into HttpRequestParts and writes the HttpAnswer back; nothing here knows which one.
import { ok, type Result } from "neverthrow";
import type { OperationContext } from "../core/context.js";
import type { Requester } from "../ports/authorizer.js";
import type { Ports } from "../ports/index.js";
import { logSafely } from "../shared/host-calls.js";
import { basePathOf, HEALTH_PATH, routePath } from "./base-path.js";
import { connectDialect, restDialect, type Dialect } from "./dialect.js";
import type { HttpAnswer, HttpRequestParts, RequestHeaders } from "./http-exchange.js";
import { isIdentityEncoding, isJsonContentType } from "./media-type.js";
import { DEFAULT_MAX_BODY_BYTES, type HandlerOptions } from "./options.js";
import { declaredTooLarge, parseJsonBody } from "./read-json-body.js";
import { originProblem } from "../core/config-check.js";
import { resolvePorts } from "../core/resolved-ports.js";
import { runtime } from "../operations/runtime.js";
import { matchRoute } from "./route-match.js";
import { dialectForUnknownPath, type Route } from "./routes.js";
import { problems, type HttpProblem } from "./wire-error.js";

/** ZITADEL's organization header (gRPC metadata and HTTP alike). */
const ORG_HEADER = "x-zitadel-orgid";

// Bodies can carry verification codes: no cache may keep them.
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "content-type": "application/json", "cache-control": "no-store" });

const HEALTHY = JSON.stringify({ status: "SERVING" });
const NOT_SERVING = JSON.stringify({ status: "NOT_SERVING" });

function answer(status: number, body: unknown, headers?: Readonly<Record<string, string>>): HttpAnswer {
  return { status, headers: headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body), routed: true };
}

function problemAnswer(dialect: Dialect, problem: HttpProblem): HttpAnswer {
  return answer(problem.status, dialect.errorJson(problem.error), problem.headers);
}

/** Refusals that need only the request line and headers, cheapest first; a GET has no body to judge. */
function refusalByHeaders(request: RequestHeaders, route: Route, limit: number): HttpProblem | undefined {
  if (route.method === "GET") return undefined;
  const encoding = request.header("content-encoding");
  if (!isIdentityEncoding(encoding)) return problems.unsupportedEncoding(encoding ?? "");
  const contentType = request.header("content-type");
  if (!isJsonContentType(contentType)) return problems.unsupportedMediaType(contentType);
  const refused = route.dialect.checkHeaders(request);
  if (refused !== undefined) return refused;
  return declaredTooLarge(request.header("content-length"), limit) ? problems.bodyTooLarge(limit) : undefined;
}

function operationContext(request: RequestHeaders, requester: Requester | undefined, origin: string | undefined): OperationContext {
  const orgId = request.header(ORG_HEADER)?.trim() ?? "";
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
  // A failing logger must not turn an error answer into a rejected promise.
  logSafely(ports.logger, "error", { path, err: cause }, "human-users: HTTP request failed");
}

/**
 * The health route: answers without authentication and without touching storage. With ports or a
 * configuration every operation would refuse (9), it says so (503), so that a deployment with a
 * missing mailer or a misspelled setting fails its readiness check instead of taking traffic;
 * which setting is wrong is not told to an unauthenticated caller (every operation's 9 names it).
 */
function healthAnswer(method: string, ports: Ports): HttpAnswer {
  if (method !== "GET") return problemAnswer(restDialect, problems.methodNotAllowed(method, ["GET"]));
  // The operations' own verdict, kept per ports object: the two never disagree, and a probe costs a lookup.
  return resolvePorts(ports, runtime).isOk()
    ? { status: 200, headers: JSON_HEADERS, body: HEALTHY, routed: true }
    : { status: 503, headers: JSON_HEADERS, body: NOT_SERVING, routed: true };
}

/** JSON's white space: space, tab, line feed, carriage return. */
function isBlank(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  return true;
}

async function readJson(parts: HttpRequestParts<unknown>, limit: number, dialect: Dialect): Promise<Result<unknown, HttpProblem>> {
  const bytes = await parts.readBody(limit);
  return bytes.andThen((read) => (dialect.blankBodyIsEmpty && isBlank(read) ? ok({}) : parseJsonBody(read)));
}

export type Dispatch<R> = (parts: HttpRequestParts<R>) => Promise<HttpAnswer>;

/**
 * Routes and answers requests for the operations: REST on ZITADEL's paths and the
 * Connect protocol on its RPC paths, under `basePath`, with the health route beside them. The
 * dispatch never rejects. Throws at creation without an `authenticate` function (a TypeError),
 * and for a `maxBodyBytes`, `basePath` or `origin` that cannot work (a RangeError).
 */
export function createDispatcher<R>(ports: Ports, options: HandlerOptions<R>): Dispatch<R> {
  // Without it every request would answer 500: refused at start-up, saying what to pass.
  if (typeof (options as Partial<HandlerOptions<R>> | undefined)?.authenticate !== "function") {
    throw new TypeError("options.authenticate is required: a function from the request to its requester (undefined or null for none), which may be async");
  }
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // A NaN or negative limit would silently read without bound: refuse the setting at start-up.
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError("maxBodyBytes must be a whole number of bytes, 0 or more");
  const basePath = basePathOf(options.basePath);
  // Every request would answer 9 for it: a setting that can never work is refused at start-up.
  const originRefusal = originProblem(options.origin, "origin");
  if (originRefusal !== undefined) throw new RangeError(`${originRefusal}; got ${JSON.stringify(options.origin)}`);

  async function serve(parts: HttpRequestParts<R>, path: string): Promise<HttpAnswer> {
    const { method } = parts;
    if (path === HEALTH_PATH) return healthAnswer(method, ports);
    const match = matchRoute(method, path);
    if (match.kind === "none") {
      const dialect = dialectForUnknownPath(path);
      return { ...problemAnswer(dialect, problems.unknownRoute(parts.path, dialect === connectDialect)), routed: false };
    }
    if (match.kind === "other-methods") return problemAnswer(match.route.dialect, problems.methodNotAllowed(method, match.allowed));
    const { route, params } = match;
    const { dialect, operation } = route;
    const refusal = refusalByHeaders(parts, route, limit);
    if (refusal !== undefined) return problemAnswer(dialect, refusal);
    // Any falsy answer is "no credentials": JavaScript hosts write `token && lookup(token)`.
    const requester = (await options.authenticate(parts.request)) || undefined;
    // A code is its own proof: a person who is not signed in redeems it without credentials.
    if (requester === undefined && route.proof !== true) return problemAnswer(dialect, problems.unauthenticated());
    const body = route.method === "GET" ? ok<unknown, HttpProblem>({}) : await readJson(parts, limit, dialect);
    if (body.isErr()) return problemAnswer(dialect, body.error);
    const result = await operation(ports, withPathValues(body.value, params), operationContext(parts, requester, options.origin));
    return result.match(
      (response) => answer(route.successStatus, response),
      (error) => answer(dialect.errorStatus(error.code), dialect.errorJson(error)),
    );
  }

  return async (parts) => {
    const path = routePath(parts.path, basePath);
    if (path === undefined) return { ...problemAnswer(restDialect, problems.unknownRoute(parts.path, false)), routed: false };
    try {
      return await serve(parts, path);
    } catch (cause) {
      // Only a throwing `authenticate` (or a broken runtime) gets here; the operations never throw.
      logFailure(ports, parts.path, cause);
      return problemAnswer(dialectForUnknownPath(path), problems.internal());
    }
  };
}
