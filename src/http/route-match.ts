import { ROUTES, type Route } from "./routes.js";

/** What a request's method and path found: a route with its path values, or a path served by other methods only. */
export type RouteMatch =
  | { readonly kind: "route"; readonly route: Route; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: "other-methods"; readonly allowed: readonly string[]; readonly route: Route }
  | { readonly kind: "none" };

interface CompiledRoute {
  readonly route: Route;
  readonly segments: readonly string[];
  /** Literal segments first: `/v2/users/human` wins over `/v2/users/{userId}`. */
  readonly literals: number;
}

const compiled: readonly CompiledRoute[] = ROUTES.map((route) => {
  const segments = route.path.split("/").slice(1);
  return { route, segments, literals: segments.filter((segment) => !segment.startsWith("{")).length };
}).sort((a, b) => b.literals - a.literals);

/** The path's values for a route's `{name}` segments, or undefined when the path is not the route's. */
function pathValues(segments: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const values: Record<string, string> = {};
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index] ?? "";
    const part = parts[index] ?? "";
    if (segment.startsWith("{")) {
      // A malformed escape names nothing.
      const value = part === "" ? undefined : decodedPart(part);
      if (value === undefined) return undefined;
      values[segment.slice(1, -1)] = value;
    } else if (segment !== part && (!part.includes("%") || segment !== decodedPart(part))) return undefined;
  }
  return values;
}

/**
 * A segment with its percent escapes decoded, as ZITADEL's gateway reads a path before it routes
 * (`%68uman` is `human`); undefined for a malformed escape. Unlike there, an encoded slash stays
 * inside its segment, so that a user id holding a slash can be named in a path.
 */
function decodedPart(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/** The routes by their number of segments: a path is compared only with routes as long as it. */
const bySegmentCount = new Map<number, CompiledRoute[]>();
for (const candidate of compiled) {
  const sameLength = bySegmentCount.get(candidate.segments.length);
  if (sameLength === undefined) bySegmentCount.set(candidate.segments.length, [candidate]);
  else sameLength.push(candidate);
}

const NO_ROUTE: RouteMatch = Object.freeze({ kind: "none" });

/**
 * The routes without `{name}` segments by method and path, each the one the search below finds
 * first: no other route has as many literal segments, so it comes before every route it shares a path with.
 */
const literalRoutes = new Map<string, RouteMatch>();
for (const { route, segments, literals } of compiled) {
  const key = `${route.method} ${route.path}`;
  if (literals === segments.length && !literalRoutes.has(key)) literalRoutes.set(key, Object.freeze({ kind: "route", route, params: Object.freeze({}) }));
}

/** The route for `method` and `path`, as ZITADEL's gateway matches them. */
export function matchRoute(method: string, path: string): RouteMatch {
  const literal = literalRoutes.get(`${method} ${path}`);
  if (literal !== undefined) return literal;
  const parts = path.split("/").slice(1);
  const candidates = bySegmentCount.get(parts.length);
  if (candidates === undefined) return NO_ROUTE;
  // In the literals-first order: the first route on the path with the method wins.
  const onPath: { route: Route; params: Record<string, string> }[] = [];
  for (const candidate of candidates) {
    const params = pathValues(candidate.segments, parts);
    if (params === undefined) continue;
    if (candidate.route.method === method) return { kind: "route", route: candidate.route, params };
    onPath.push({ route: candidate.route, params });
  }
  const first = onPath[0];
  if (first === undefined) return NO_ROUTE;
  const allowed = [...new Set(onPath.map((candidate) => candidate.route.method))].sort();
  return { kind: "other-methods", allowed, route: first.route };
}
