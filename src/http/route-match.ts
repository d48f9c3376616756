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
      if (part === "") return undefined;
      try {
        values[segment.slice(1, -1)] = decodeURIComponent(part);
      } catch {
        // A malformed escape names nothing.
        return undefined;
      }
    } else if (segment !== part) return undefined;
  }
  return values;
}

/** The route for `method` and `path`, as ZITADEL's gateway matches them. */
export function matchRoute(method: string, path: string): RouteMatch {
  const parts = path.split("/").slice(1);
  const onPath: { route: Route; params: Record<string, string> }[] = [];
  for (const candidate of compiled) {
    const params = pathValues(candidate.segments, parts);
    if (params !== undefined) onPath.push({ route: candidate.route, params });
  }
  const served = onPath.find((candidate) => candidate.route.method === method);
  if (served !== undefined) return { kind: "route", route: served.route, params: served.params };
  const first = onPath[0];
  if (first === undefined) return { kind: "none" };
  const allowed = [...new Set(onPath.map((candidate) => candidate.route.method))].sort();
  return { kind: "other-methods", allowed, route: first.route };
}
