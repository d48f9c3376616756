// The Node bridge's own error answers, for requests that never reach the handler because node:http
// or the Fetch API cannot represent them. They are the library's REST error JSON (code, message, one
// ErrorDetail); ids starting `NODE-` say the bridge refused, not the library.
import { STATUS_CODES } from "node:http";
import { ERROR_DETAIL_TYPE, type ErrorDetail } from "../../src/index.js";

export interface BridgeRefusal {
  readonly status: number;
  /** gRPC code, as in the library's error bodies. */
  readonly body: { readonly code: number; readonly message: string; readonly details: readonly ErrorDetail[] };
  readonly headers: Readonly<Record<string, string>>;
}

function refusal(status: number, code: number, id: string, message: string, headers: Readonly<Record<string, string>> = {}): BridgeRefusal {
  return { status, body: { code, message, details: [{ "@type": ERROR_DETAIL_TYPE, id, message }] }, headers };
}

/** A caller's value echoed in a message: quoted, and cut short so that a huge value cannot bloat the answer. */
function quoted(value: string): string {
  return JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}...` : value);
}

export const refusals = {
  /** The handler's own answer to a method other than POST, for the methods a Fetch Request cannot carry. */
  method: (method: string): BridgeRefusal =>
    refusal(405, 12, "HTTP-m3th", `method ${quoted(method)} is not allowed here; use POST`, { allow: "POST" }),
  noHost: (): BridgeRefusal => refusal(400, 3, "NODE-h0st", "request has no Host header"),
  manyHosts: (): BridgeRefusal => refusal(400, 3, "NODE-h0st", "request has more than one Host header"),
  badHost: (host: string): BridgeRefusal => refusal(400, 3, "NODE-h0st", `Host header ${quoted(host)} is not a valid host`),
  badTarget: (target: string): BridgeRefusal =>
    refusal(400, 3, "NODE-t4rg", `request target ${quoted(target)} is neither a path nor an http URL`),
  notHttp: (): BridgeRefusal => refusal(400, 3, "NODE-p4rs", "request is not valid HTTP/1.1"),
  endedEarly: (): BridgeRefusal => refusal(400, 3, "NODE-p4rs", "request ended before it was complete"),
  headersTooLarge: (): BridgeRefusal => refusal(431, 8, "NODE-h34d", "request headers are larger than this server accepts"),
  tooSlow: (): BridgeRefusal => refusal(408, 4, "NODE-t1me", "request did not arrive in time"),
  /** Anything else the Fetch API would not take; the checks above should leave nothing for it. */
  unreadable: (): BridgeRefusal => refusal(400, 3, "NODE-r3qt", "request could not be read"),
  /** The bridge itself failed (the handler never rejects): the library's internal error. */
  internal: (): BridgeRefusal => refusal(500, 13, "HTTP-1ntl", "internal error"),
};

/** The body's bytes and the headers to send with them, as the handler sends its JSON answers. */
export function refusalContent(refused: BridgeRefusal): { readonly body: Buffer; readonly headers: Record<string, string> } {
  const body = Buffer.from(JSON.stringify(refused.body));
  const headers = { "content-type": "application/json", "cache-control": "no-store", ...refused.headers, "content-length": String(body.byteLength) };
  return { body, headers };
}

/** A refusal as raw HTTP/1.1, closing the connection: for sockets node:http no longer parses. */
export function rawRefusal(refused: BridgeRefusal): Buffer {
  const { body, headers } = refusalContent(refused);
  const head = [`HTTP/1.1 ${refused.status} ${STATUS_CODES[refused.status] ?? ""}`];
  for (const [name, value] of Object.entries({ ...headers, connection: "close" })) head.push(`${name}: ${value}`);
  return Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"), body]);
}
