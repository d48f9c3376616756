/** The health route, under the base path: answers 200 without authentication or storage. */
export const HEALTH_PATH = "/healthz";

/** `/segment` repeated, no trailing slash, no query or fragment; "" for none. */
const BASE_PATH = /^(?:\/[^/?#]+)*$/;

/** The checked base path; a RangeError at start-up for one that could never match. */
export function basePathOf(basePath: string | undefined): string {
  const path = basePath ?? "";
  if (!BASE_PATH.test(path)) throw new RangeError(`basePath must be empty or start with "/" and not end with "/", such as "/users-api"; got ${JSON.stringify(path)}`);
  if (path === "") return path;
  // Requests are matched on their URL's path, which the URL parser has already percent-encoded and
  // resolved: a base path it would change (a space, "ü", "..", "\\") can never equal one.
  const parsed = new URL(path, "http://localhost").pathname;
  if (parsed !== path) {
    throw new RangeError(
      `basePath must be written as it appears in request URLs, percent-encoded and without "." or ".." segments: ` +
        `a request URL's path shows ${JSON.stringify(path)} as ${JSON.stringify(parsed)}`,
    );
  }
  return path;
}

/** The path a route is matched against: `path` with `basePath` taken off, or undefined when it is outside. */
export function routePath(path: string, basePath: string): string | undefined {
  if (basePath === "") return path;
  if (!path.startsWith(basePath)) return undefined;
  const rest = path.slice(basePath.length);
  return rest.startsWith("/") ? rest : undefined;
}
