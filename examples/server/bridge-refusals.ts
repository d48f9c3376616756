// The example server's answers to what node:http refuses before any handler sees it (a request it
// cannot parse, headers too large, CONNECT): the library's REST error JSON (code, message, one
// ErrorDetail) written as raw HTTP/1.1, instead of a bare status line or a dropped connection.
// Ids starting `NODE-` say the server refused, not the library.
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

export const refusals = {
  /** node:http hands CONNECT to no request listener; answered as the handler answers a method it does not serve. */
  connect: (): BridgeRefusal => refusal(405, 12, "HTTP-m3th", 'method "CONNECT" is not allowed here; use GET or POST', { allow: "GET, POST" }),
  notHttp: (): BridgeRefusal => refusal(400, 3, "NODE-p4rs", "request is not valid HTTP/1.1"),
  endedEarly: (): BridgeRefusal => refusal(400, 3, "NODE-p4rs", "request ended before it was complete"),
  headersTooLarge: (): BridgeRefusal => refusal(431, 8, "NODE-h34d", "request headers are larger than this server accepts"),
  tooSlow: (): BridgeRefusal => refusal(408, 4, "NODE-t1me", "request did not arrive in time"),
};

/** A refusal as raw HTTP/1.1, closing the connection: for sockets node:http no longer parses. */
export function rawRefusal(refused: BridgeRefusal): Buffer {
  const body = Buffer.from(JSON.stringify(refused.body));
  const headers = { "content-type": "application/json", "cache-control": "no-store", ...refused.headers, "content-length": String(body.byteLength), connection: "close" };
  const head = [`HTTP/1.1 ${refused.status} ${STATUS_CODES[refused.status] ?? ""}`];
  for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
  return Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"), body]);
}
