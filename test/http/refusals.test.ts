// Requests the HTTP layer refuses on its own: each gets a whole error body with the right status,
// and none reaches storage or the mailer.
import { describe, expect, it } from "vitest";
import { fixedClock, memoryMailer, memoryStore, type Requester } from "../../src/index.js";
import { createFetchHandler, type FetchHandlerOptions } from "../../src/http/index.js";
import { createNodeHandler, type NodeHandlerOptions } from "../../src/node/index.js";
import { connectError, restError } from "./expected-errors.js";
import { tripwirePorts, type Tripwire } from "./tripwire.js";

const ADMIN: Requester = { userId: "admin", orgId: "org-1", instanceAdmin: true };
const REST_A = "/v2/users/human";
const REST_B = "/management/v1/users/human/_import";
const CONNECT_A = "/zitadel.user.v2.UserService/AddHumanUser";
const CONNECT_B = "/zitadel.management.v1.ManagementService/ImportHumanUser";
const JSON_HEADERS = { "content-type": "application/json" };

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

function setup(options: Partial<FetchHandlerOptions> = {}): Tripwire & { call(path: string, init?: RequestInit): Promise<Answer>; raw(path: string, init?: RequestInit): Promise<Response> } {
  const tripwire = tripwirePorts();
  const handler = createFetchHandler(tripwire.ports, { authenticate: () => ADMIN, ...options });
  const raw = (path: string, init: RequestInit = {}): Promise<Response> => handler(new Request(`http://localhost${path}`, init));
  const call = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const response = await raw(path, init);
    return { status: response.status, body: await response.json() };
  };
  return { ...tripwire, call, raw };
}

describe("routes and methods", () => {
  it("answers an unknown REST path with 404 and code 5", async () => {
    const { call, touched } = setup();
    expect(await call("/v2/groups", { method: "POST", headers: JSON_HEADERS, body: "{}" })).toEqual({
      status: 404,
      body: restError(5, "HTTP-r0ut", 'no operation at "/v2/groups"'),
    });
    expect(await call("/v2/users/1/email", { method: "POST", headers: JSON_HEADERS, body: "{}" })).toEqual({
      status: 404,
      body: restError(5, "HTTP-r0ut", 'no operation at "/v2/users/1/email"'),
    });
    expect(touched).toEqual([]);
  });

  it("answers an unknown Connect procedure with 404 and unimplemented", async () => {
    const { call, touched } = setup();
    const path = "/zitadel.user.v2.UserService/DeleteUser";
    expect(await call(path, { method: "POST", headers: JSON_HEADERS, body: "{}" })).toEqual({
      status: 404,
      body: connectError("unimplemented", "HTTP-r0ut", `no operation at "${path}"`),
    });
    expect(touched).toEqual([]);
  });

  it("quotes an echoed path and cuts it at 100 characters", async () => {
    const { call } = setup();
    const path = `/${"a".repeat(150)}`;
    expect(await call(path, { method: "POST", headers: JSON_HEADERS, body: "{}" })).toEqual({
      status: 404,
      body: restError(5, "HTTP-r0ut", `no operation at "${path.slice(0, 100)}..."`),
    });
  });

  it("names every method a path is served with: GET for a user, GET and POST where both match", async () => {
    const { raw, touched } = setup();
    const user = await raw("/v2/users/123", { method: "POST", headers: JSON_HEADERS, body: "{}" });
    const both = await raw(REST_A, { method: "DELETE" });
    expect([user.status, user.headers.get("allow"), await user.json()]).toEqual([405, "GET", restError(12, "HTTP-m3th", 'method "POST" is not allowed here; use GET')]);
    expect([both.status, both.headers.get("allow"), await both.json()]).toEqual([405, "GET, POST", restError(12, "HTTP-m3th", 'method "DELETE" is not allowed here; use GET or POST')]);
    expect(touched).toEqual([]);
  });

  it("reads percent-encoded characters in a path's fixed parts as the characters, as ZITADEL's gateway does", async () => {
    const { call, touched } = setup({ authenticate: () => undefined });
    const post = (path: string) => call(path, { method: "POST", headers: JSON_HEADERS, body: "{}" });
    // A route that matched asks for credentials; one that did not answers 404 or 405.
    expect([await post("/v2/users/%68uman"), await post("/management/v1/users/human/%5Fimport"), await post("/zitadel.user.v2.UserService/Add%48umanUser")]).toEqual([
      { status: 401, body: restError(16, "HTTP-4uth", "authentication required") },
      { status: 401, body: restError(16, "HTTP-4uth", "authentication required") },
      { status: 401, body: connectError("unauthenticated", "HTTP-4uth", "authentication required") },
    ]);
    // An encoded slash does not separate segments, and a malformed escape names nothing.
    expect((await post("/v2/users%2Fhuman")).status).toBe(404);
    expect((await post("/v2/users/%E0%A4%A")).status).toBe(404);
    expect(touched).toEqual([]);
  });

  it("answers another method with 405 and Allow: POST, in each style", async () => {
    const { raw, touched } = setup();
    const rest = await raw(REST_B, { method: "GET" });
    const connect = await raw(CONNECT_B, { method: "PUT", headers: JSON_HEADERS, body: "{}" });
    expect([rest.status, rest.headers.get("allow"), await rest.json()]).toEqual([
      405,
      "POST",
      restError(12, "HTTP-m3th", 'method "GET" is not allowed here; use POST'),
    ]);
    expect([connect.status, connect.headers.get("allow"), await connect.json()]).toEqual([
      405,
      "POST",
      connectError("unimplemented", "HTTP-m3th", 'method "PUT" is not allowed here; use POST'),
    ]);
    expect(touched).toEqual([]);
  });
});

describe("content type and encoding", () => {
  it("refuses a body that is not declared JSON with 415", async () => {
    const { call, touched } = setup();
    expect(await call(REST_A, { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" })).toEqual({
      status: 415,
      body: restError(3, "HTTP-m3d1", 'content type "text/plain" is not supported; send application/json'),
    });
    expect(touched).toEqual([]);
  });

  it("refuses a body without a content type with 415", async () => {
    const { call } = setup();
    const request = new Request(`http://localhost${REST_B}`, { method: "POST", body: new Uint8Array([123, 125]) });
    expect(request.headers.get("content-type")).toBeNull();
    expect(await call(REST_B, { method: "POST", body: new Uint8Array([123, 125]) })).toEqual({
      status: 415,
      body: restError(3, "HTTP-m3d1", "content type (none) is not supported; send application/json"),
    });
  });

  it("refuses Connect's binary form with 415 and a Connect error", async () => {
    const { call, touched } = setup();
    expect(await call(CONNECT_A, { method: "POST", headers: { "content-type": "application/proto" }, body: new Uint8Array([10, 0]) })).toEqual({
      status: 415,
      body: connectError("invalid_argument", "HTTP-m3d1", 'content type "application/proto" is not supported; send application/json'),
    });
    expect(touched).toEqual([]);
  });

  it("refuses a compressed body with 415 and Accept-Encoding: identity", async () => {
    const { raw, touched } = setup();
    const response = await raw(CONNECT_A, { method: "POST", headers: { ...JSON_HEADERS, "content-encoding": "gzip" }, body: "{}" });
    expect([response.status, response.headers.get("accept-encoding"), await response.json()]).toEqual([
      415,
      "identity",
      connectError("unimplemented", "HTTP-3nc0", 'content encoding "gzip" is not supported; send the body uncompressed'),
    ]);
    expect(touched).toEqual([]);
  });

  it("refuses a Connect protocol version other than 1", async () => {
    const { call, touched } = setup();
    expect(await call(CONNECT_B, { method: "POST", headers: { ...JSON_HEADERS, "connect-protocol-version": "2" }, body: "{}" })).toEqual({
      status: 400,
      body: connectError("invalid_argument", "HTTP-v3rs", 'connect protocol version "2" is not supported; use 1'),
    });
    expect(touched).toEqual([]);
  });
});

describe("bodies", () => {
  it("refuses malformed JSON with 400 and code 3, in each style", async () => {
    const { call, touched } = setup();
    const init = { method: "POST", headers: JSON_HEADERS, body: '{"profile": ' };
    expect([await call(REST_A, init), await call(CONNECT_A, init)]).toEqual([
      { status: 400, body: restError(3, "HTTP-js0n", "request body is not valid UTF-8 JSON") },
      { status: 400, body: connectError("invalid_argument", "HTTP-js0n", "request body is not valid UTF-8 JSON") },
    ]);
    expect(touched).toEqual([]);
  });

  it("refuses a body that gives one member twice, at any depth, as protojson does (JSON.parse would keep the last without a word)", async () => {
    const { call, touched } = setup();
    const twice = (body: string) => ({ method: "POST", headers: JSON_HEADERS, body });
    expect([
      await call(REST_A, twice('{"username":"ann","profile":{"givenName":"A","familyName":"B"},"email":{"email":"a@acme.test"},"username":"bob"}')),
      await call(CONNECT_A, twice('{"profile":{"givenName":"A","familyName":"B","given\u004eame":"C"},"email":{"email":"a@acme.test"}}')),
    ]).toEqual([
      { status: 400, body: restError(3, "HTTP-tw1c", "request body gives username twice; send each member once") },
      { status: 400, body: connectError("invalid_argument", "HTTP-tw1c", "request body gives profile.givenName twice; send each member once") },
    ]);
    expect(touched).toEqual([]);
  });

  it("judges a body nested thousands deep as any other (400 for its shape), without a stack overflow answered 500", async () => {
    const { call, touched } = setup();
    const answer = await call(REST_A, { method: "POST", headers: JSON_HEADERS, body: `{"profile":${"[".repeat(8_000)}${"]".repeat(8_000)}}` });
    expect([answer.status, (answer.body as { code?: number }).code]).toEqual([400, 3]);
    expect(touched).toEqual([]);
  });

  it("reads a REST body of nothing or white space as the empty request {}, as ZITADEL's gateway does; Connect refuses it", async () => {
    const { call } = setup();
    const empty = await call(REST_A, { method: "POST", headers: JSON_HEADERS, body: "{}" });
    expect(empty.body).not.toEqual(restError(3, "HTTP-js0n", "request body is not valid UTF-8 JSON"));
    const blank = [await call(REST_A, { method: "POST", headers: JSON_HEADERS }), await call(REST_A, { method: "POST", headers: JSON_HEADERS, body: " \r\n\t" })];
    expect(blank).toEqual([empty, empty]);
    expect(await call(CONNECT_A, { method: "POST", headers: JSON_HEADERS, body: "" })).toEqual({
      status: 400,
      body: connectError("invalid_argument", "HTTP-js0n", "request body is not valid UTF-8 JSON"),
    });
  });

  it("refuses a body that is not UTF-8", async () => {
    const { call, touched } = setup();
    const latin1 = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]); // {"a":"é"} in Latin-1
    expect(await call(REST_B, { method: "POST", headers: JSON_HEADERS, body: latin1 })).toEqual({
      status: 400,
      body: restError(3, "HTTP-js0n", "request body is not valid UTF-8 JSON"),
    });
    expect(touched).toEqual([]);
  });

  it("refuses a declared Content-Length over the limit with 413 before reading", async () => {
    const { call, touched } = setup({ maxBodyBytes: 16 });
    const body = JSON.stringify({ username: "seventeen-or-more" });
    expect([await call(REST_A, { method: "POST", headers: JSON_HEADERS, body }), await call(CONNECT_B, { method: "POST", headers: JSON_HEADERS, body })]).toEqual([
      { status: 413, body: restError(8, "HTTP-s1ze", "request body is larger than 16 bytes") },
      { status: 413, body: connectError("resource_exhausted", "HTTP-s1ze", "request body is larger than 16 bytes") },
    ]);
    expect(touched).toEqual([]);
  });

  it("cuts a streamed body without Content-Length off at the limit and stops reading it", async () => {
    const { call, touched } = setup({ maxBodyBytes: 1024 });
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new TextEncoder().encode(" ".repeat(100)));
      },
      cancel() {
        cancelled = true;
      },
    });
    const init = { method: "POST", headers: JSON_HEADERS, body: endless, duplex: "half" } as RequestInit;
    expect(await call(REST_A, init)).toEqual({ status: 413, body: restError(8, "HTTP-s1ze", "request body is larger than 1024 bytes") });
    // Eleven 100-byte chunks cross the limit; the stream may have queued one more ahead of the reader.
    expect({ cancelled, pulledAtMost12: pulled <= 12 }).toEqual({ cancelled: true, pulledAtMost12: true });
    expect(touched).toEqual([]);
  });

  it("reads a body of exactly the limit and refuses one byte more", async () => {
    const body = JSON.stringify({ profile: { givenName: "Ada", familyName: "Lovelace" }, email: { email: "ada@acme.test", isVerified: true } });
    const limit = new TextEncoder().encode(body).byteLength;
    const ports = { storage: memoryStore({ organizations: [{ id: "org-1", domains: [] }] }), mailer: memoryMailer(), clock: fixedClock("2024-05-01T12:00:00Z") };
    const handler = createFetchHandler(ports, { authenticate: () => ADMIN, maxBodyBytes: limit });
    const post = (text: string): Promise<Response> => handler(new Request(`http://localhost${REST_A}`, { method: "POST", headers: JSON_HEADERS, body: text }));
    const atLimit = await post(body);
    const overLimit = await post(`${body} `);
    expect([atLimit.status, overLimit.status, await overLimit.json()]).toEqual([
      201,
      413,
      restError(8, "HTTP-s1ze", `request body is larger than ${limit} bytes`),
    ]);
  });
});

describe("a body already read", () => {
  // As createNodeHandler answers a body a middleware read before it: the caller's mistake, not a 500.
  it.each([
    ["read", async (request: Request) => void (await request.text())],
    ["locked by a reader", async (request: Request) => void request.body?.getReader()],
  ])("answers 400 with code 3 when the body was %s before the handler", async (_how, before) => {
    const tripwire = tripwirePorts();
    const handler = createFetchHandler(tripwire.ports, { authenticate: () => ADMIN });
    const request = new Request(`http://localhost${REST_A}`, { method: "POST", headers: JSON_HEADERS, body: "{}" });
    await before(request);
    const response = await handler(request);
    expect({ status: response.status, body: await response.json(), touched: tripwire.touched }).toEqual({
      status: 400,
      body: restError(3, "HTTP-r34d", "request body was already read by another handler before this one"),
      touched: [],
    });
  });
});

describe("authentication", () => {
  // Any falsy answer is "no credentials", as `token && lookup(token)` gives in JavaScript.
  it.each([undefined, null, false, "", 0])("answers 401 with code 16 when authenticate returns %j, without reading the body", async (returned) => {
    const { call, touched } = setup({ authenticate: () => returned as unknown as undefined });
    expect([
      await call(REST_A, { method: "POST", headers: JSON_HEADERS, body: "{" }),
      await call(CONNECT_B, { method: "POST", headers: JSON_HEADERS, body: "not even JSON" }),
    ]).toEqual([
      { status: 401, body: restError(16, "HTTP-4uth", "authentication required") },
      { status: 401, body: connectError("unauthenticated", "HTTP-4uth", "authentication required") },
    ]);
    expect(touched).toEqual([]);
  });

  it("answers 500 with code 13 and logs when authenticate throws", async () => {
    const { call, touched, logged } = setup({
      authenticate: () => {
        throw new Error("token service down");
      },
    });
    expect(await call(CONNECT_A, { method: "POST", headers: JSON_HEADERS, body: "{}" })).toEqual({
      status: 500,
      body: connectError("internal", "HTTP-1ntl", "internal error"),
    });
    expect({ touched, logged }).toEqual({ touched: [], logged: ["human-users: HTTP request failed"] });
  });

  it("still answers 500 when the logger throws too", async () => {
    const tripwire = tripwirePorts();
    const logger = {
      warn: () => undefined,
      error: () => {
        throw new Error("log sink down");
      },
    };
    const authenticate = (): never => {
      throw new Error("token service down");
    };
    const handler = createFetchHandler({ ...tripwire.ports, logger }, { authenticate });
    const response = await handler(new Request(`http://localhost${REST_A}`, { method: "POST", headers: JSON_HEADERS, body: "{}" }));
    expect([response.status, await response.json()]).toEqual([500, restError(13, "HTTP-1ntl", "internal error")]);
  });
});

describe("options", () => {
  it("refuses to be created without an authenticate function, in every front end, saying what to pass", () => {
    const { ports } = tripwirePorts();
    const message = "options.authenticate is required: a function from the request to its requester (undefined or null for none), which may be async";
    const created = [
      () => createFetchHandler(ports, undefined as unknown as FetchHandlerOptions),
      () => createFetchHandler(ports, {} as FetchHandlerOptions),
      () => createFetchHandler(ports, { authenticate: "admin" } as unknown as FetchHandlerOptions),
      () => createNodeHandler(ports, {} as NodeHandlerOptions),
    ].map((create) => {
      try {
        create();
        return "created";
      } catch (error) {
        return error instanceof TypeError ? error.message : "other error";
      }
    });
    expect(created).toEqual(Array(4).fill(message));
  });

  it("refuses a body limit that is not a whole number of bytes when the handler is created", () => {
    const { ports } = tripwirePorts();
    const attempts = [Number.NaN, -1, 1.5].map((maxBodyBytes) => {
      try {
        createFetchHandler(ports, { authenticate: () => ADMIN, maxBodyBytes });
        return "created";
      } catch (error) {
        return error instanceof RangeError ? error.message : "other error";
      }
    });
    expect(attempts).toEqual(Array(3).fill("maxBodyBytes must be a whole number of bytes, 0 or more"));
  });

  it("refuses an origin links cannot start with when the handler is created, and takes one they can", () => {
    const { ports } = tripwirePorts();
    const attempt = (origin: string) => {
      try {
        createFetchHandler(ports, { authenticate: () => ADMIN, origin });
        return "created";
      } catch (error) {
        return error instanceof RangeError ? error.message : "other error";
      }
    };
    const bad = ["javascript:alert(1)", "not a url", "", "ftp://x.example", "https://x.example/?q=1", "https://x.example/#f"];
    expect(bad.map(attempt)).toEqual(bad.map((origin) => `origin must be an absolute http or https URL without query or fragment; got ${JSON.stringify(origin)}`));
    expect(["https://id.acme.test", "https://id.acme.test/base/", "http://[::1]:8080"].map(attempt)).toEqual(["created", "created", "created"]);
  });
});
