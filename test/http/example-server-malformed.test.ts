// `npm start`'s server fed requests no well-behaved client sends, over a real loopback socket: each
// gets a JSON error answer (or, for a client that goes away, none), and the server keeps serving.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killStartedServers, startExampleServer, type ExampleServer } from "./example-process.js";
import { restError } from "./expected-errors.js";
import { parseAnswers, sendRaw, type RawAnswer } from "./raw-http.js";

let server: ExampleServer;

beforeAll(async () => {
  server = await startExampleServer();
});

afterAll(killStartedServers);

const CLOSE = { "content-type": "application/json", "cache-control": "no-store", connection: "close" };
const KEEP_ALIVE = { "content-type": "application/json", "cache-control": "no-store", connection: "keep-alive", "keep-alive": "timeout=5" };

function jsonAnswer(status: number, body: unknown, headers: Readonly<Record<string, string>> = CLOSE): RawAnswer {
  return { status, headers: { ...headers, "content-length": String(Buffer.byteLength(JSON.stringify(body))) }, body };
}

/** As the handler answers a method a path is not served with: /v2/users/human takes POST, and GET (as a user id). */
const methodRefused = (method: string): RawAnswer =>
  jsonAnswer(405, restError(12, "HTTP-m3th", `method "${method}" is not allowed here; use GET or POST`), { ...CLOSE, allow: "GET, POST" });
const noRoute = (path: string, headers: Readonly<Record<string, string>> = CLOSE): RawAnswer => jsonAnswer(404, restError(5, "HTTP-r0ut", `no operation at ${JSON.stringify(path)}`), headers);
const badHost = (message: string): RawAnswer => jsonAnswer(400, restError(3, "NODE-h0st", message));
const badTarget = (target: string): RawAnswer =>
  jsonAnswer(400, restError(3, "NODE-t4rg", `request target ${JSON.stringify(target)} is neither a path nor an http URL`));
const notHttp = (message: string): RawAnswer => jsonAnswer(400, restError(3, "NODE-p4rs", message));

/** A request with a bad Host, every other line fine. */
const withHost = (host: string): string => `POST /v2/users/human HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;

/** Proof the process is alive and answering: a plain request gets the handler's own answer. */
async function stillServing(): Promise<unknown> {
  const response = await fetch(`${server.baseUrl}/v2/users/human`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  return [response.status, await response.json()];
}

const UNAUTHENTICATED = [401, restError(16, "HTTP-4uth", "authentication required")];

describe("npm start, given malformed requests", () => {
  it.each([
    ["TRACE", "TRACE /v2/users/human HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", methodRefused("TRACE")],
    ["TRACE with a body", "TRACE / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello", noRoute("/")],
    ["CONNECT", "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n", methodRefused("CONNECT")],
    ["CONNECT with tunnel bytes after it", "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\nSSH-2.0-x\r\n", methodRefused("CONNECT")],
    ["a method node:http does not know", "FOO / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", notHttp("request is not valid HTTP/1.1")],
    ["TRACK", "TRACK / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", notHttp("request is not valid HTTP/1.1")],
    ["a method in lower case", "post /v2/users/human HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", notHttp("request is not valid HTTP/1.1")],
    ["a Host with a space", withHost("a b"), badHost('Host header "a b" is not a valid host')],
    ["a Host that is a lone bracket", withHost("["), badHost('Host header "[" is not a valid host')],
    ["an empty Host", withHost(""), badHost('Host header "" is not a valid host')],
    ["a Host with user info", withHost("user@127.0.0.1"), badHost('Host header "user@127.0.0.1" is not a valid host')],
    ["a Host whose port is out of range", withHost("127.0.0.1:99999"), badHost('Host header "127.0.0.1:99999" is not a valid host')],
    ["a Host with a path", withHost("127.0.0.1/x"), badHost('Host header "127.0.0.1/x" is not a valid host')],
    ["two Host headers", "POST /v2/users/human HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n", badHost("request has more than one Host header")],
    ["no Host in HTTP/1.1", "POST /v2/users/human HTTP/1.1\r\nConnection: close\r\n\r\n", badHost("request has no Host header")],
    ["an absolute URL that does not parse", "POST http://[ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", badTarget("http://[")],
    ["an absolute URL with a port out of range", "POST http://127.0.0.1:99999/v2/users/human HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", badTarget("http://127.0.0.1:99999/v2/users/human")],
    ["the asterisk target", "OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", badTarget("*")],
    [
      "headers larger than node:http accepts",
      `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      jsonAnswer(431, restError(8, "NODE-h34d", "request headers are larger than this server accepts")),
    ],
  ])("answers %s with a JSON error and keeps serving", async (_name, request, expected) => {
    const exchange = await sendRaw(server.port, request);
    expect({ answers: parseAnswers(exchange.received), closedByServer: exchange.closedByServer }).toEqual({ answers: [expected], closedByServer: true });
    expect(await stillServing()).toEqual(UNAUTHENTICATED);
  });

  it("serves a path that starts with two slashes as that path, not as a host", async () => {
    const exchange = await sendRaw(server.port, "POST //evil.example/v2/users/human HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    expect(parseAnswers(exchange.received)).toEqual([jsonAnswer(404, restError(5, "HTTP-r0ut", 'no operation at "//evil.example/v2/users/human"'))]);
  });

  it("serves HTTP/1.0 without a Host, and an absolute URL as its path", async () => {
    const exchange = await sendRaw(
      server.port,
      "POST /v2/users/human HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
    );
    const absolute = await sendRaw(
      server.port,
      "POST http://127.0.0.1/v2/users/human HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    );
    const unauthenticated = jsonAnswer(401, restError(16, "HTTP-4uth", "authentication required"));
    expect([parseAnswers(exchange.received), parseAnswers(absolute.received)]).toEqual([[unauthenticated], [unauthenticated]]);
  });

  // A refusal given before a body has all arrived closes the connection instead (see below).
  it("answers the request after a refused TRACE without a body on the same connection", async () => {
    const trace = "TRACE / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    const next = "POST /v2/users/human HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}";
    const exchange = await sendRaw(server.port, trace + next);
    expect(parseAnswers(exchange.received)).toEqual([
      noRoute("/", KEEP_ALIVE),
      jsonAnswer(401, restError(16, "HTTP-4uth", "authentication required")),
    ]);
  });

  /** The head of a request whose body stops after 10 of its 100 bytes. */
  const halfBody = (authorization: string): string =>
    `POST /v2/users/human HTTP/1.1\r\nHost: 127.0.0.1\r\n${authorization}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"userId":`;
  const AUTHORIZED = "Authorization: Bearer demo-token\r\n";

  it("answers a client that stops sending half way through the body (and says so) with a JSON error", async () => {
    const exchange = await sendRaw(server.port, halfBody(AUTHORIZED), "half-close");
    expect(parseAnswers(exchange.received)).toEqual([notHttp("request ended before it was complete")]);
    expect(await stillServing()).toEqual(UNAUTHENTICATED);
  });

  it("keeps serving after a client goes away half way through the body", async () => {
    const exchange = await sendRaw(server.port, halfBody(AUTHORIZED), "abort");
    expect(exchange.received).toBe("");
    expect(await stillServing()).toEqual(UNAUTHENTICATED);
  });

  it("closes the connection after answering before the body is all there, instead of a second answer", async () => {
    const exchange = await sendRaw(server.port, halfBody(""), "half-close");
    expect(parseAnswers(exchange.received)).toEqual([jsonAnswer(401, restError(16, "HTTP-4uth", "authentication required"))]);
  });

  it("closes the connection after refusing a large body unread, rather than leave the next request stuck behind it", async () => {
    const refused = `POST /v2/users/human HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 2000000\r\n\r\n${"a".repeat(2_000_000)}`;
    const next = "POST /v2/users/human HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
    const exchange = await sendRaw(server.port, refused + next);
    expect({ answers: parseAnswers(exchange.received), closedByServer: exchange.closedByServer }).toEqual({
      answers: [jsonAnswer(415, restError(3, "HTTP-m3d1", 'content type "text/plain" is not supported; send application/json'))],
      closedByServer: true,
    });
    expect(await stillServing()).toEqual(UNAUTHENTICATED);
  });
});
