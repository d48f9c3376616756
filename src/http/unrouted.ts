// A Fetch handler's answer for a path it has no route for carries this mark, so that the Node
// front end (`toNodeHandler`) can pass the request on to the next middleware instead. A registered
// symbol, so that the mark holds between two copies of the package (its ESM and CommonJS builds).
const UNROUTED = Symbol.for("human-users.unrouted");

export function markUnrouted(response: Response): Response {
  Object.defineProperty(response, UNROUTED, { value: true });
  return response;
}

export function isUnrouted(response: Response): boolean {
  return (response as Response & { readonly [UNROUTED]?: boolean })[UNROUTED] === true;
}
