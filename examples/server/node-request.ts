// A node:http request as a Fetch API Request, or the reason it cannot be one. node:http lets through
// requests that `new URL` and `new Request` throw on (a Host with a space, a target that is not a
// URL, TRACE): each is checked here first, so the bridge answers them instead of crashing.
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { err, ok, type Result } from "neverthrow";
import { refusals, type BridgeRefusal } from "./bridge-refusals.js";

/** Methods the Fetch API refuses to build a Request with (node:http parses them). */
const FETCH_FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/**
 * RFC 3986's host (an IP literal in brackets, or letters, digits, `-._~!$&'()*+,;=` and %-escapes)
 * with an optional port. Anything else, `/`, `@` or a space among them, would change what the URL means.
 */
const HOST_SYNTAX = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d*)?$/;

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** The one Host header's value; HTTP/1.0 may leave it out, HTTP/1.1 must send exactly one (RFC 9112, 3.2). */
function hostOf(incoming: IncomingMessage): Result<string, BridgeRefusal> {
  const hosts: string[] = [];
  for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) {
    if (incoming.rawHeaders[i]?.toLowerCase() === "host") hosts.push(incoming.rawHeaders[i + 1] ?? "");
  }
  const [host] = hosts;
  if (hosts.length > 1) return err(refusals.manyHosts());
  if (host === undefined) return incoming.httpVersion === "1.0" ? ok("localhost") : err(refusals.noHost());
  if (!HOST_SYNTAX.test(host) || parseUrl(`http://${host}`) === undefined) return err(refusals.badHost(host));
  return ok(host);
}

/**
 * The URL a target names: a path on `host`, or an absolute http(s) URL as a proxy would send.
 * A path is joined to the host as text, so that `//other.example/x` stays a path instead of naming a host.
 */
function urlOf(target: string, host: string): Result<URL, BridgeRefusal> {
  const url = target.startsWith("/") ? parseUrl(`http://${host}${target}`) : /^https?:\/\//i.test(target) ? parseUrl(target) : undefined;
  // A Request refuses a URL with credentials in it.
  if (url === undefined || url.username !== "" || url.password !== "") return err(refusals.badTarget(target));
  return ok(url);
}

function methodOf(incoming: IncomingMessage): Result<string, BridgeRefusal> {
  const method = incoming.method ?? "GET";
  return FETCH_FORBIDDEN_METHODS.has(method.toUpperCase()) ? err(refusals.method(method)) : ok(method);
}

function headersOf(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) {
    headers.append(incoming.rawHeaders[i] ?? "", incoming.rawHeaders[i + 1] ?? "");
  }
  return headers;
}

/** The request body is streamed into the Request, so that the handler's size limit holds without buffering. */
function build(incoming: IncomingMessage, url: URL, method: string): Result<Request, BridgeRefusal> {
  try {
    const hasBody = method !== "GET" && method !== "HEAD";
    const body = hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : null;
    // `duplex: "half"` is what Node's fetch requires for a streamed request body.
    return ok(new Request(url, { method, headers: headersOf(incoming), body, duplex: "half" } as RequestInit));
  } catch {
    return err(refusals.unreadable());
  }
}

export function toFetchRequest(incoming: IncomingMessage): Result<Request, BridgeRefusal> {
  return hostOf(incoming)
    .andThen((host) => urlOf(incoming.url ?? "/", host))
    .andThen((url) => methodOf(incoming).andThen((method) => build(incoming, url, method)));
}
