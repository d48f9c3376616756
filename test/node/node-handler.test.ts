// createNodeHandler and toNodeHandler over real loopback HTTP: the same answers as the Fetch
// handler, middleware hand-off, the base path, the health route, body limits, and requests
// no well-behaved client sends.
import type { IncomingMessage, ServerResponse } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Ports, Requester } from "../../src/index.js";
import { createFetchHandler, type HandlerOptions } from "../../src/http/index.js";
import { createNodeHandler, toNodeHandler, type NodeHandler } from "../../src/node/index.js";
import { connectError, restError } from "../http/expected-errors.js";
import { openRaw, parseAnswers, sendRaw } from "../http/raw-http.js";
import { tripwirePorts } from "../http/tripwire.js";
import { instanceAdmin, testPorts } from "../operations/support/ports.js";
import { serveNode, type ServedNode } from "./serve-node.js";

const started: ServedNode[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((served) => served.close()));
});

type Front = "createNodeHandler" | "toNodeHandler";
const FRONTS: readonly Front[] = ["createNodeHandler", "toNodeHandler"];

function nodeHandler(front: Front, ports: Ports, options: Partial<HandlerOptions<unknown>> = {}): NodeHandler {
  const authenticate = (): Requester => instanceAdmin;
  return front === "createNodeHandler" ? createNodeHandler(ports, { authenticate, ...options }) : toNodeHandler(createFetchHandler(ports, { authenticate, ...options }));
}

async function serve(handler: NodeHandler): Promise<ServedNode> {
  const served = await serveNode(handler);
  started.push(served);
  return served;
}

const JSON_HEADERS = { "content-type": "application/json" };
const newUser = { username: "ada", profile: { givenName: "Ada", familyName: "Lovelace" }, email: { email: "ada@acme.test", returnCode: {} } };

interface Seen {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** Status, the headers that say what the answer is, and the parsed body. */
async function seen(response: Response): Promise<Seen> {
  const headers: Record<string, string> = {};
  for (const name of ["content-type", "cache-control", "allow", "accept-encoding"]) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: response.status, headers, body: await response.json() };
}

const CLOSE = { "content-type": "application/json", "cache-control": "no-store", connection: "close" };

/** A JSON answer as `parseAnswers` reads it off a request sent with `Connection: close`. */
function closingAnswer(status: number, body: unknown, extra: Readonly<Record<string, string>> = {}): unknown {
  return { status, headers: { ...CLOSE, ...extra, "content-length": String(Buffer.byteLength(JSON.stringify(body))) }, body };
}

const traceOf = (path: string): string => `TRACE ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;

/** Requests across the routes, the refusals and both wire styles, each with its own answer. */
const REQUESTS: readonly (readonly [string, string, RequestInit])[] = [
  ["create a user", "/v2/users/human", { method: "POST", headers: { ...JSON_HEADERS, "x-zitadel-orgid": "acme" }, body: JSON.stringify(newUser) }],
  ["get a user", "/v2/users/100000000000000001", { method: "GET" }],
  ["get a user that does not exist", "/v2/users/404", { method: "GET" }],
  ["create by Connect", "/zitadel.user.v2.UserService/AddHumanUser", { method: "POST", headers: { ...JSON_HEADERS, "x-zitadel-orgid": "acme" }, body: JSON.stringify({ ...newUser, username: "grace", email: { email: "grace@acme.test" } }) }],
  ["a body that is not JSON", "/v2/users/human", { method: "POST", headers: JSON_HEADERS, body: "{" }],
  ["an empty body on a REST path", "/v2/users/human", { method: "POST", headers: JSON_HEADERS, body: "" }],
  ["an empty body on a Connect path", "/zitadel.user.v2.UserService/AddHumanUser", { method: "POST", headers: JSON_HEADERS, body: "" }],
  ["a text body", "/v2/users/human", { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" }],
  ["a gzip body", "/v2/users/human", { method: "POST", headers: { ...JSON_HEADERS, "content-encoding": "gzip" }, body: "{}" }],
  ["a wrong Connect version", "/zitadel.user.v2.UserService/AddHumanUser", { method: "POST", headers: { ...JSON_HEADERS, "connect-protocol-version": "2" }, body: "{}" }],
  ["a method the path is not served with", "/management/v1/users/human/_import", { method: "PUT", headers: JSON_HEADERS, body: "{}" }],
  ["an unknown path", "/v2/groups", { method: "POST", headers: JSON_HEADERS, body: "{}" }],
  ["an unknown procedure", "/zitadel.user.v2.UserService/DeleteUser", { method: "POST", headers: JSON_HEADERS, body: "{}" }],
  ["the health route", "/healthz", { method: "GET" }],
  ["the health route by POST", "/healthz", { method: "POST", headers: JSON_HEADERS, body: "{}" }],
  ["a body over the limit", "/v2/users/human", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ padding: "x".repeat(300) }) }],
];

async function answersOf(call: (path: string, init: RequestInit) => Promise<Response>): Promise<Seen[]> {
  const answers: Seen[] = [];
  for (const [, path, init] of REQUESTS) answers.push(await seen(await call(path, init)));
  return answers;
}

describe("createNodeHandler and toNodeHandler", () => {
  it("answer each request exactly as the Fetch handler does", async () => {
    const options = { maxBodyBytes: 256 };
    const fetchHandler = createFetchHandler(testPorts(), { authenticate: () => instanceAdmin, ...options });
    const expected = await answersOf((path, init) => fetchHandler(new Request(`http://localhost${path}`, init)));
    for (const front of FRONTS) {
      const { baseUrl } = await serve(nodeHandler(front, testPorts(), options));
      expect({ front, answers: await answersOf((path, init) => fetch(`${baseUrl}${path}`, init)) }).toEqual({ front, answers: expected });
    }
    // The list covers what it claims to: a user made and read, refusals of each kind.
    expect(expected.map((answer) => answer.status)).toEqual([201, 200, 404, 200, 400, 400, 400, 415, 415, 400, 405, 404, 404, 200, 405, 413]);
  });

  it.each(FRONTS)("%s creates a user over loopback and answers the whole body", async (front) => {
    const { baseUrl } = await serve(nodeHandler(front, testPorts()));
    const response = await fetch(`${baseUrl}/v2/users/human`, { method: "POST", headers: { ...JSON_HEADERS, "x-zitadel-orgid": "acme" }, body: JSON.stringify(newUser) });
    expect(await seen(response)).toEqual({
      status: 201,
      headers: { "content-type": "application/json", "cache-control": "no-store" },
      body: { userId: "100000000000000001", details: { sequence: "2", changeDate: "2026-03-04T05:06:07Z", resourceOwner: "acme" }, emailCode: "AAAAAA" },
    });
  });
});

/** A listener that hands `handler` a `next` which answers 299, as the host's next middleware would. */
function withNext(handler: NodeHandler): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return (request, response) =>
    handler(request, response, () => {
      // The request reaches the next middleware unread: it can still take the body.
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => response.writeHead(299, { "content-type": "text/plain" }).end(`next saw ${request.url} ${Buffer.concat(chunks).toString()}`));
    });
}

describe.each(FRONTS)("%s as middleware", (front) => {
  it("passes a path it has no route for to next(), body unread, and answers its own", async () => {
    const served = await serveNode(withNext(nodeHandler(front, testPorts(), { basePath: "/users-api" })));
    started.push(served);
    const outside = await fetch(`${served.baseUrl}/shop/cart`, { method: "POST", body: "apples" });
    const unknownInside = await fetch(`${served.baseUrl}/users-api/v2/groups`, { method: "POST", body: "pears" });
    const health = await fetch(`${served.baseUrl}/users-api/healthz`);
    expect([outside.status, await outside.text(), unknownInside.status, await unknownInside.text(), await seen(health)]).toEqual([
      299,
      "next saw /shop/cart apples",
      299,
      "next saw /users-api/v2/groups pears",
      { status: 200, headers: { "content-type": "application/json", "cache-control": "no-store" }, body: { status: "SERVING" } },
    ]);
  });
});

describe.each(FRONTS)("%s as middleware, given TRACE", (front) => {
  it("passes a path it has no route for to next() and answers its own paths 405", async () => {
    const served = await serveNode(withNext(nodeHandler(front, testPorts(), { basePath: "/users-api" })));
    started.push(served);
    const outside = await sendRaw(served.port, traceOf("/shop/cart"));
    const inside = await sendRaw(served.port, traceOf("/users-api/v2/users/human"));
    expect([parseAnswers(outside.received).map(({ status, body }) => ({ status, body })), parseAnswers(inside.received)]).toEqual([
      [{ status: 299, body: "next saw /shop/cart " }],
      [closingAnswer(405, restError(12, "HTTP-m3th", 'method "TRACE" is not allowed here; use GET or POST'), { allow: "GET, POST" })],
    ]);
  });
});

describe.each(FRONTS)("%s with a base path", (front) => {
  it("serves the routes under it and answers 404 outside it", async () => {
    const { baseUrl } = await serve(nodeHandler(front, testPorts(), { basePath: "/users-api" }));
    const create = (path: string): Promise<Response> =>
      fetch(`${baseUrl}${path}`, { method: "POST", headers: { ...JSON_HEADERS, "x-zitadel-orgid": "acme" }, body: JSON.stringify(newUser) });
    const outside = await create("/v2/users/human");
    const prefixOnly = await create("/users-api");
    const lookalike = await create("/users-apiv2/users/human");
    const inside = await create("/users-api/v2/users/human");
    expect([await seen(outside), await seen(prefixOnly), await seen(lookalike), (await seen(inside)).status]).toEqual([
      { status: 404, headers: { "content-type": "application/json", "cache-control": "no-store" }, body: restError(5, "HTTP-r0ut", 'no operation at "/v2/users/human"') },
      { status: 404, headers: { "content-type": "application/json", "cache-control": "no-store" }, body: restError(5, "HTTP-r0ut", 'no operation at "/users-api"') },
      { status: 404, headers: { "content-type": "application/json", "cache-control": "no-store" }, body: restError(5, "HTTP-r0ut", 'no operation at "/users-apiv2/users/human"') },
      201,
    ]);
  });

  it("answers the health route without authenticating and without touching storage", async () => {
    const tripwire = tripwirePorts();
    const authenticate = (): Requester => {
      throw new Error("the health route must not authenticate");
    };
    const handler = front === "createNodeHandler" ? createNodeHandler(tripwire.ports, { authenticate, basePath: "/a/b" }) : toNodeHandler(createFetchHandler(tripwire.ports, { authenticate, basePath: "/a/b" }));
    const { baseUrl } = await serve(handler);
    const health = await fetch(`${baseUrl}/a/b/healthz`);
    expect([await seen(health), tripwire.touched, tripwire.logged]).toEqual([
      { status: 200, headers: { "content-type": "application/json", "cache-control": "no-store" }, body: { status: "SERVING" } },
      [],
      [],
    ]);
  });
});

describe("the health route with ports every operation would refuse", () => {
  it.each(FRONTS)("answers 503 NOT_SERVING through %s, without naming the setting, and SERVING once the ports are whole", async (front) => {
    const { mailer: _missing, ...withoutMailer } = testPorts();
    const misspelled = { ...testPorts(), config: { orign: "https://login.example.com" } } as unknown as Ports;
    const answers = [];
    for (const ports of [withoutMailer as unknown as Ports, misspelled, testPorts()]) {
      const { baseUrl } = await serve(nodeHandler(front, ports));
      answers.push(await seen(await fetch(`${baseUrl}/healthz`)));
    }
    const headers = { "content-type": "application/json", "cache-control": "no-store" };
    expect(answers).toEqual([
      { status: 503, headers, body: { status: "NOT_SERVING" } },
      { status: 503, headers, body: { status: "NOT_SERVING" } },
      { status: 200, headers, body: { status: "SERVING" } },
    ]);
  });
});

describe("a base path that could never match", () => {
  it.each(["users-api", "/users-api/", "/", "/a//b", "/a?b"])("refuses %j at creation", (basePath) => {
    const message = `basePath must be empty or start with "/" and not end with "/", such as "/users-api"; got ${JSON.stringify(basePath)}`;
    expect(() => createNodeHandler(testPorts(), { authenticate: () => instanceAdmin, basePath })).toThrow(new RangeError(message));
    expect(() => createFetchHandler(testPorts(), { authenticate: () => instanceAdmin, basePath })).toThrow(new RangeError(message));
  });
});

describe("a base path the URL parser would change", () => {
  it.each([
    ["/users api", "/users%20api"],
    ["/benutzer-ü", "/benutzer-%C3%BC"],
    ["/api/..", "/"],
    ["/api/.", "/api/"],
    ["/api/%2e%2E", "/"],
    ['/a"b', "/a%22b"],
    ["/a{b}", "/a%7Bb%7D"],
    ["/a\\b", "/a/b"],
    ["/a\tb", "/ab"],
  ])("refuses %j at creation, naming what requests would show", (basePath, parsed) => {
    const message =
      `basePath must be written as it appears in request URLs, percent-encoded and without "." or ".." segments: ` +
      `a request URL's path shows ${JSON.stringify(basePath)} as ${JSON.stringify(parsed)}`;
    expect(() => createNodeHandler(testPorts(), { authenticate: () => instanceAdmin, basePath })).toThrow(new RangeError(message));
    expect(() => createFetchHandler(testPorts(), { authenticate: () => instanceAdmin, basePath })).toThrow(new RangeError(message));
  });

  it.each(FRONTS)("%s serves one given percent-encoded, and one with characters the parser keeps", async (front) => {
    const answers: unknown[] = [];
    for (const basePath of ["/users%20api", "/benutzer-%C3%BC", "/a:b/~x!$&'()*+,;=@", "/a|b/%zz"]) {
      const { baseUrl } = await serve(nodeHandler(front, testPorts(), { basePath }));
      answers.push(await seen(await fetch(`${baseUrl}${basePath}/healthz`)));
    }
    const healthy = { status: 200, headers: { "content-type": "application/json", "cache-control": "no-store" }, body: { status: "SERVING" } };
    expect(answers).toEqual([healthy, healthy, healthy, healthy]);
  });
});

/** A create request with one header line for each Content-Type and each Authorization given, byte for byte. */
function createWithRepeats(contentTypes: readonly string[], authorizations: readonly string[]): string {
  const body = JSON.stringify(newUser);
  const lines = [
    "POST /v2/users/human HTTP/1.1",
    "Host: 127.0.0.1",
    ...contentTypes.map((type) => `Content-Type: ${type}`),
    ...authorizations.map((token) => `Authorization: ${token}`),
    "X-Zitadel-OrgId: acme",
    `Content-Length: ${body.length}`,
    "Connection: close",
  ];
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}

/** The same request for the Fetch handler: Headers joins the copies as a Fetch runtime does. */
function fetchCreateWithRepeats(contentTypes: readonly string[], authorizations: readonly string[]): Request {
  const headers = new Headers({ "x-zitadel-orgid": "acme" });
  for (const type of contentTypes) headers.append("content-type", type);
  for (const token of authorizations) headers.append("authorization", token);
  return new Request("http://127.0.0.1/v2/users/human", { method: "POST", headers, body: JSON.stringify(newUser) });
}

/** What each front end made of one request: its answer, and every Authorization `authenticate` saw. */
interface RepeatAnswers {
  readonly node: unknown;
  readonly viaFetch: unknown;
  readonly fetched: Seen;
  readonly seenAuthorizations: readonly (string | undefined)[];
  readonly touched: readonly string[];
}

describe("a request that repeats a header node:http keeps only the first of", () => {
  /** The request sent to createNodeHandler, toNodeHandler and the Fetch handler, whose `authenticate` takes only "Bearer a". */
  async function answers(contentTypes: readonly string[], authorizations: readonly string[]): Promise<RepeatAnswers> {
    const tripwire = tripwirePorts();
    const seenAuthorizations: (string | undefined)[] = [];
    const check = (authorization: string | undefined): Requester | undefined => {
      seenAuthorizations.push(authorization);
      return authorization === "Bearer a" ? instanceAdmin : undefined;
    };
    const fetchHandler = createFetchHandler(tripwire.ports, { authenticate: (request) => check(request.headers.get("authorization") ?? undefined) });
    const node = await serve(createNodeHandler(tripwire.ports, { authenticate: (request) => check(request.headers.authorization) }));
    const viaFetch = await serve(toNodeHandler(fetchHandler));
    const raw = createWithRepeats(contentTypes, authorizations);
    return {
      node: parseAnswers((await sendRaw(node.port, raw)).received),
      viaFetch: parseAnswers((await sendRaw(viaFetch.port, raw)).received),
      fetched: await seen(await fetchHandler(fetchCreateWithRepeats(contentTypes, authorizations))),
      seenAuthorizations,
      touched: tripwire.touched,
    };
  }

  it("answers two Content-Type headers as the Fetch handler does: joined with \", \", not the first alone", async () => {
    const body = restError(3, "HTTP-m3d1", 'content type "application/json, text/plain" is not supported; send application/json');
    expect(await answers(["application/json", "text/plain"], ["Bearer a"])).toEqual({
      node: [closingAnswer(415, body)],
      viaFetch: [closingAnswer(415, body)],
      fetched: { status: 415, headers: { "content-type": "application/json", "cache-control": "no-store" }, body },
      seenAuthorizations: [],
      touched: [],
    });
  });

  it("hands authenticate two Authorization headers as the Fetch handler does: joined with \", \"", async () => {
    const body = restError(16, "HTTP-4uth", "authentication required");
    expect(await answers(["application/json"], ["Bearer a", "Bearer b"])).toEqual({
      node: [closingAnswer(401, body)],
      viaFetch: [closingAnswer(401, body)],
      fetched: { status: 401, headers: { "content-type": "application/json", "cache-control": "no-store" }, body },
      seenAuthorizations: ["Bearer a, Bearer b", "Bearer a, Bearer b", "Bearer a, Bearer b"],
      touched: [],
    });
  });

  it("joins them also behind a middleware that added a header of its own", async () => {
    const seenAuthorizations: (string | undefined)[] = [];
    const handler = createNodeHandler(testPorts(), {
      authenticate: (request) => {
        seenAuthorizations.push(request.headers.authorization);
        return instanceAdmin;
      },
    });
    const served = await serveNode((request, response) => {
      request.headers["x-request-id"] = "r-1";
      return handler(request, response);
    });
    started.push(served);
    const contentTypes = await sendRaw(served.port, createWithRepeats(["application/json", "text/plain"], ["Bearer a"]));
    const authorizations = await sendRaw(served.port, createWithRepeats(["application/json"], ["Bearer a", "Bearer b"]));
    expect([parseAnswers(contentTypes.received).map((answer) => answer.status), parseAnswers(authorizations.received).map((answer) => answer.status), seenAuthorizations]).toEqual([
      [415],
      [201],
      ["Bearer a, Bearer b"],
    ]);
  });

  it("passes such a request for a path it has no route for to next() with its headers as node:http parsed them", async () => {
    let nextSaw: unknown;
    const handler = createNodeHandler(testPorts(), { authenticate: () => instanceAdmin });
    const served = await serveNode((request, response) =>
      handler(request, response, () => {
        nextSaw = [request.headers["content-type"], request.headers.authorization];
        response.writeHead(299).end();
      }),
    );
    started.push(served);
    const exchange = await sendRaw(served.port, createWithRepeats(["application/json", "text/plain"], ["Bearer a", "Bearer b"]).replace("/v2/users/human", "/shop/cart"));
    expect([parseAnswers(exchange.received).map((answer) => answer.status), nextSaw]).toEqual([[299], ["application/json", "Bearer a"]]);
  });
});

const HEAD_OF_CREATE = "POST /v2/users/human HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";

describe.each(FRONTS)("%s reading bodies", (front) => {
  it("refuses a chunked body once it passes the limit, without reading the rest, and closes the connection", async () => {
    const tripwire = tripwirePorts();
    const served = await serve(nodeHandler(front, tripwire.ports, { maxBodyBytes: 100 }));
    const connection = openRaw(served.port);
    await connection.write(`${HEAD_OF_CREATE}Transfer-Encoding: chunked\r\n\r\n`);
    await connection.write(`64\r\n${"a".repeat(100)}\r\n`);
    await connection.write(`64\r\n${"a".repeat(100)}\r\n`);
    const { received, closedByServer } = await connection.exchange;
    const body = restError(8, "HTTP-s1ze", "request body is larger than 100 bytes");
    expect({ answers: parseAnswers(received), closedByServer, touched: tripwire.touched }).toEqual({
      answers: [
        {
          status: 413,
          headers: { "content-type": "application/json", "cache-control": "no-store", connection: "close", "content-length": String(JSON.stringify(body).length) },
          body,
        },
      ],
      closedByServer: true,
      touched: [],
    });
  });

  it("reads a body under the limit sent in 200,000 chunks of one byte, and keeps serving", async () => {
    const served = await serve(nodeHandler(front, testPorts()));
    const body = JSON.stringify({ ...newUser, profile: { ...newUser.profile, nickName: "x".repeat(200) }, padding: "y".repeat(199_000) });
    const chunked = [...body].map((char) => `1\r\n${char}\r\n`).join("");
    const exchange = await sendRaw(served.port, `${HEAD_OF_CREATE}x-zitadel-orgid: acme\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunked}0\r\n\r\n`, "wait", 20_000);
    const [answer] = parseAnswers(exchange.received);
    const health = await fetch(`${served.baseUrl}/healthz`);
    expect([answer?.status, (answer?.body as { userId?: string } | undefined)?.userId !== undefined, health.status]).toEqual([201, true, 200]);
  }, 30_000);

  it("reads and throws away the rest of a chunked body past the limit, so that a client that sends it all before reading gets its 413", async () => {
    const served = await serve(nodeHandler(front, testPorts(), { maxBodyBytes: 1024 }));
    const size = 8 * 1024 * 1024;
    const request = Buffer.concat([
      Buffer.from(`${HEAD_OF_CREATE}Transfer-Encoding: chunked\r\n\r\n${size.toString(16)}\r\n`),
      Buffer.alloc(size, 0x20),
      Buffer.from("\r\n0\r\n\r\n"),
    ]);
    const received = await new Promise<string>((resolve) => {
      // Reads nothing until the whole request is written, as simple clients do.
      const socket = connect({ port: served.port, host: "127.0.0.1", allowHalfOpen: true });
      socket.pause();
      const chunks: Buffer[] = [];
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.on("error", () => undefined);
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
      socket.write(request, () => {
        socket.resume();
        socket.end();
      });
    });
    expect(received.split("\r\n")[0]).toBe("HTTP/1.1 413 Payload Too Large");
  }, 20_000);

  it("does no work for a client that goes away half way through its body, and keeps serving", async () => {
    const tripwire = tripwirePorts();
    const served = await serve(nodeHandler(front, tripwire.ports));
    const exchange = await sendRaw(served.port, `${HEAD_OF_CREATE}Content-Length: 100\r\n\r\n{"userId":`, "abort");
    await served.settled();
    const health = await fetch(`${served.baseUrl}/healthz`);
    expect([exchange.received, tripwire.touched, tripwire.logged, health.status]).toEqual(["", [], [], 200]);
  });

  it("settles, and does no work, when the client goes away while an asynchronous authenticate runs", async () => {
    const tripwire = tripwirePorts();
    const authenticate = async (): Promise<Requester> => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return instanceAdmin;
    };
    const served = await serve(nodeHandler(front, tripwire.ports, { authenticate }));
    const body = JSON.stringify(newUser);
    const exchange = await sendRaw(served.port, `${HEAD_OF_CREATE}Content-Length: ${String(body.length)}\r\n\r\n${body}`, "abort");
    const settled = await Promise.race([served.settled().then(() => "settled"), new Promise((resolve) => setTimeout(() => resolve("still pending"), 2000))]);
    const health = await fetch(`${served.baseUrl}/healthz`);
    expect([exchange.received, settled, tripwire.touched, health.status]).toEqual(["", "settled", [], 200]);
  });

  it("answers a request whose body a body parser already took with a 400, instead of waiting for it", async () => {
    const served = await serveNode((request, response) => {
      request.resume();
      request.once("end", () => void nodeHandler(front, testPorts())(request, response));
    });
    started.push(served);
    const response = await fetch(`${served.baseUrl}/v2/users/human`, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(newUser) });
    expect(await seen(response)).toEqual({
      status: 400,
      headers: { "content-type": "application/json", "cache-control": "no-store" },
      body: restError(3, "HTTP-r34d", "request body was already read by another handler before this one"),
    });
  });
});

describe.each(FRONTS)("%s given malformed requests", (front) => {
  const withHost = (host: string): string => `POST /v2/users/human HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
  const badHost = (host: string): unknown => closingAnswer(400, restError(3, "NODE-h0st", `Host header ${JSON.stringify(host)} is not a valid host`));

  it.each([
    // TRACE, which a Fetch Request cannot carry, is routed as any other method the routes do not take.
    ["TRACE", traceOf("/v2/users/human"), closingAnswer(405, restError(12, "HTTP-m3th", 'method "TRACE" is not allowed here; use GET or POST'), { allow: "GET, POST" })],
    ["TRACE on a Connect path", traceOf("/zitadel.user.v2.UserService/AddHumanUser"), closingAnswer(405, connectError("unimplemented", "HTTP-m3th", 'method "TRACE" is not allowed here; use POST'), { allow: "POST" })],
    ["TRACE on the health route", traceOf("/healthz"), closingAnswer(405, restError(12, "HTTP-m3th", 'method "TRACE" is not allowed here; use GET'), { allow: "GET" })],
    ["TRACE on a path with no route", traceOf("/shop/cart"), closingAnswer(404, restError(5, "HTTP-r0ut", 'no operation at "/shop/cart"'))],
    ["a Host with a space", withHost("a b"), badHost("a b")],
    ["a Host with user info", withHost("user@127.0.0.1"), badHost("user@127.0.0.1")],
    ["a Host whose port is out of range", withHost("127.0.0.1:99999"), badHost("127.0.0.1:99999")],
    ["two Host headers", "POST /v2/users/human HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n", closingAnswer(400, restError(3, "NODE-h0st", "request has more than one Host header"))],
    ["the asterisk target", "OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", closingAnswer(400, restError(3, "NODE-t4rg", 'request target "*" is neither a path nor an http URL'))],
  ])("answers %s with a 4xx JSON error and keeps serving", async (_name, request, expected) => {
    const tripwire = tripwirePorts();
    const served = await serve(nodeHandler(front, tripwire.ports));
    const exchange = await sendRaw(served.port, request);
    const health = await fetch(`${served.baseUrl}/healthz`);
    expect({ answers: parseAnswers(exchange.received), touched: tripwire.touched, health: health.status }).toEqual({ answers: [expected], touched: [], health: 200 });
  });
});

describe.each(FRONTS)("%s closing after a body refused unread", (front) => {
  it("answers the refusal, then neither runs nor answers what the client pipelined behind the body", async () => {
    const ports = testPorts();
    const served = await serve(nodeHandler(front, ports));
    const refused = `POST /v2/users/human HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 300000\r\n\r\n${"a".repeat(300_000)}`;
    const create = JSON.stringify(newUser);
    const pipelined = `POST /v2/users/human HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Zitadel-Orgid: acme\r\nContent-Length: ${create.length}\r\n\r\n${create}`;
    const exchange = await sendRaw(served.port, refused + pipelined);
    await served.settled();
    expect({ answers: parseAnswers(exchange.received), closedByServer: exchange.closedByServer, users: ports.storage.events().length }).toEqual({
      answers: [{ status: 415, headers: { ...CLOSE, "content-length": expect.any(String) }, body: restError(3, "HTTP-m3d1", 'content type "text/plain" is not supported; send application/json') }],
      closedByServer: true,
      users: 0,
    });
  });
});
