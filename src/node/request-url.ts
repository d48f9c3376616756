// The URL a node:http request names, or why it names none. node:http lets through requests that
// `new URL` and `new Request` throw on (a Host with a space, a target that is not a URL): each is
// checked here, so that both Node front ends answer them with a 400 instead of failing.
import type { IncomingMessage } from "node:http";
import { err, ok, type Ok, type Result } from "neverthrow";
import type { HttpProblem } from "../http/wire-error.js";
import { nodeProblems } from "./node-problems.js";

/**
 * RFC 3986's host (an IP literal in brackets, or letters, digits, `-._~!$&'()*+,;=` and %-escapes)
 * with an optional port. Anything else, `/`, `@` or a space among them, would change what the URL means.
 */
const HOST_SYNTAX = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d*)?$/;

/**
 * Hosts `new URL` surely takes, checked without building one: a DNS name whose last label starts
 * with a letter (so it is never read as an IPv4 number), or a dotted-decimal IPv4 address, with a
 * port of at most five digits (its range is checked apart). `xn--` labels are left to the URL
 * parser, which may refuse their Punycode.
 */
const PLAIN_HOST = /^(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?|(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d))(?::(\d{1,5}))?$/;
const PUNYCODE_LABEL = /(?:^|\.)xn--/i;

/**
 * A path `new URL` keeps as written: `/`-separated segments of unreserved characters, sub-delims,
 * `:` and `@` (nothing it escapes, no `%`, no `\`), none of them `.` or `..` (which it resolves).
 */
const PLAIN_PATH = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9\-._~!$&'()*+,;=:@]*)+$/;

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function isPlainHost(host: string): boolean {
  const match = PLAIN_HOST.exec(host);
  if (match === null || PUNYCODE_LABEL.test(host)) return false;
  const port = match[1];
  return port === undefined || Number(port) <= 65535;
}

/** The last Host found valid: a server's requests mostly name the same one, checked once then. */
let lastHost: Ok<string, HttpProblem> = ok("localhost");

/** The one Host header's value; HTTP/1.0 may leave it out, HTTP/1.1 must send exactly one (RFC 9112, 3.2). */
function hostOf(incoming: IncomingMessage): Result<string, HttpProblem> {
  let host: string | undefined;
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? "";
    if (name.length !== 4 || name.toLowerCase() !== "host") continue;
    if (host !== undefined) return err(nodeProblems.manyHosts());
    host = raw[i + 1] ?? "";
  }
  if (host === undefined) return incoming.httpVersion === "1.0" ? ok("localhost") : err(nodeProblems.noHost());
  if (host === lastHost.value) return lastHost;
  if (!isPlainHost(host) && (!HOST_SYNTAX.test(host) || parseUrl(`http://${host}`) === undefined)) return err(nodeProblems.badHost(host));
  lastHost = ok(host);
  return lastHost;
}

/**
 * The URL a target names: a path on `host`, or an absolute http(s) URL as a proxy would send.
 * A path is joined to the host as text, so that `//other.example/x` stays a path instead of naming a host.
 */
function urlOf(target: string, host: string): Result<URL, HttpProblem> {
  const url = target.startsWith("/") ? parseUrl(`http://${host}${target}`) : /^https?:\/\//i.test(target) ? parseUrl(target) : undefined;
  // A Request refuses a URL with credentials in it.
  if (url === undefined || url.username !== "" || url.password !== "") return err(nodeProblems.badTarget(target));
  return ok(url);
}

/** The request's URL, from its one valid Host and its target. */
export function requestUrl(incoming: IncomingMessage): Result<URL, HttpProblem> {
  return hostOf(incoming).andThen((host) => urlOf(incoming.url ?? "/", host));
}

/**
 * The path of `requestUrl(incoming)` (the same refusals), without building a URL for a plain path:
 * after a valid Host, a target starting with `/` names its own path, up to any query.
 */
export function requestPath(incoming: IncomingMessage): Result<string, HttpProblem> {
  const host = hostOf(incoming);
  if (host.isErr()) return err(host.error);
  const target = incoming.url ?? "/";
  const query = target.indexOf("?");
  const path = query === -1 ? target : target.slice(0, query);
  if (PLAIN_PATH.test(path)) return ok(path);
  return urlOf(target, host.value).map((url) => url.pathname);
}
