// Both wire styles driven by clients nobody here wrote: requests built and responses parsed with
// the reference server's published protobuf types, RPCs made through Connect's own client, all
// against the handler served on a loopback port.
import { create, createRegistry, fromJson, toJson, type JsonObject } from "@bufbuild/protobuf";
import { AnySchema, anyUnpack, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import {
  ImportHumanUserRequestSchema,
  ImportHumanUserResponseSchema,
  ManagementService,
} from "@zitadel/proto/zitadel/management_pb.js";
import { ErrorDetailSchema } from "@zitadel/proto/zitadel/message_pb.js";
import {
  AddHumanUserRequestSchema,
  AddHumanUserResponseSchema,
  UserService,
  type AddHumanUserRequest,
} from "@zitadel/proto/zitadel/user/v2/user_service_pb.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock, memoryMailer, memoryStore, type MemoryStore, type Requester } from "../../src/index.js";
import { createFetchHandler } from "../../src/http/index.js";
import { BadRequestSchema } from "./bad-request-schema.js";
import { serveOnLoopback, type Served } from "./serve.js";

const NOW = new Date("2024-05-01T12:00:00Z");
const ORIGIN = "https://id.example.test";
const REQUESTERS: Readonly<Record<string, Requester>> = {
  "admin-token": { userId: "admin", orgId: "org-1", instanceAdmin: true },
  "org2-token": { userId: "member-2", orgId: "org-2" },
};
const AS_ADMIN = { authorization: "Bearer admin-token" };

let store: MemoryStore;
let served: Served;

beforeEach(async () => {
  store = memoryStore({
    organizations: [
      { id: "org-1", domains: [{ domain: "acme.test", verified: true }] },
      { id: "org-2", domains: [{ domain: "other.test", verified: true }] },
    ],
  });
  const handler = createFetchHandler(
    { storage: store, mailer: memoryMailer(), clock: fixedClock(NOW) },
    {
      authenticate: (request) => REQUESTERS[(request.headers.get("authorization") ?? "").replace(/^Bearer /, "")],
      origin: ORIGIN,
    },
  );
  served = await serveOnLoopback(handler);
});

afterEach(async () => {
  await served.close();
});

/** The sequence of the last event written for `userId`, as protobuf's uint64. */
function lastSequence(userId: string): bigint {
  return BigInt(store.events().filter((event) => event.aggregateId === userId).length);
}

function connectTransport(): Transport {
  return createConnectTransport({ baseUrl: served.baseUrl, httpVersion: "1.1", useBinaryFormat: false });
}

async function postJson(path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; json: JsonObject }> {
  const response = await fetch(`${served.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as JsonObject };
}

/** Alice's request to be created in `orgId`, with the email code returned. */
function aliceIn(orgId: string, userId = "alice-1"): AddHumanUserRequest {
  return create(AddHumanUserRequestSchema, {
    userId,
    username: userId,
    organization: { org: { case: "orgId", value: orgId } },
    profile: { givenName: "Alice", familyName: "Liddell" },
    email: { email: `${userId}@acme.test`, verification: { case: "returnCode", value: {} } },
    metadata: [{ key: "team", value: new TextEncoder().encode("blue") }],
  });
}

const aliceRequest = aliceIn("org-1");

const invalidAddRequest = create(AddHumanUserRequestSchema, {
  userId: "bad-1",
  profile: { givenName: " ", familyName: "Liddell" },
  email: { email: "not an address" },
});

describe("REST, with bodies from @zitadel/proto's JSON", () => {
  it("creates a user (A) whose response parses as AddHumanUserResponse", async () => {
    const { status, json } = await postJson("/v2/users/human", toJson(AddHumanUserRequestSchema, aliceRequest), AS_ADMIN);
    const parsed = fromJson(AddHumanUserResponseSchema, json);
    // 201, as ZITADEL's gateway answers AddHumanUser (user_service.proto: success_code 201).
    expect(status).toBe(201);
    expect(parsed.emailCode).toMatch(/^[A-Z0-9]{6}$/);
    expect(parsed).toEqual(
      create(AddHumanUserResponseSchema, {
        userId: "alice-1",
        details: { sequence: lastSequence("alice-1"), changeDate: timestampFromDate(NOW), resourceOwner: "org-1" },
        emailCode: parsed.emailCode ?? "",
      }),
    );
    // The wire body is exactly protobuf's canonical JSON of that message: no extra or renamed field.
    expect(json).toEqual(toJson(AddHumanUserResponseSchema, parsed));
  });

  it("creates a user (A) in the x-zitadel-orgid organization when the body names none", async () => {
    const request = create(AddHumanUserRequestSchema, {
      userId: "erin-1",
      profile: { givenName: "Erin", familyName: "Example" },
      email: { email: "erin@other.test", verification: { case: "isVerified", value: true } },
    });
    const { status, json } = await postJson("/v2/users/human", toJson(AddHumanUserRequestSchema, request), { ...AS_ADMIN, "x-zitadel-orgid": "org-2" });
    expect({ status, response: fromJson(AddHumanUserResponseSchema, json) }).toEqual({
      status: 201,
      response: create(AddHumanUserResponseSchema, {
        userId: "erin-1",
        details: { sequence: lastSequence("erin-1"), changeDate: timestampFromDate(NOW), resourceOwner: "org-2" },
      }),
    });
  });

  it("imports a user (B) into the organization named by x-zitadel-orgid", async () => {
    const request = create(ImportHumanUserRequestSchema, {
      userName: "bob",
      profile: { firstName: "Bob", lastName: "Builder" },
      email: { email: "bob@other.test", isEmailVerified: true },
      requestPasswordlessRegistration: true,
    });
    const { status, json } = await postJson("/management/v1/users/human/_import", toJson(ImportHumanUserRequestSchema, request), {
      ...AS_ADMIN,
      "x-zitadel-orgid": "org-2",
    });
    const parsed = fromJson(ImportHumanUserResponseSchema, json);
    const link = parsed.passwordlessRegistration?.link ?? "";
    expect(status).toBe(200);
    expect(link).toMatch(new RegExp(`^${ORIGIN}/ui/login/login/passwordless/init\\?userID=${parsed.userId}&orgID=org-2&codeID=[^&]+&code=[A-Za-z0-9]{12}$`));
    expect(parsed).toEqual(
      create(ImportHumanUserResponseSchema, {
        userId: parsed.userId,
        details: {
          sequence: lastSequence(parsed.userId),
          creationDate: timestampFromDate(NOW),
          changeDate: timestampFromDate(NOW),
          resourceOwner: "org-2",
        },
        passwordlessRegistration: { link, lifetime: { seconds: 3600n }, expiration: { seconds: 3600n } },
      }),
    );
    expect(json).toEqual(toJson(ImportHumanUserResponseSchema, parsed));
  });

  it("answers a validation failure with 400 and details that parse as protobuf Any", async () => {
    const { status, json } = await postJson("/v2/users/human", toJson(AddHumanUserRequestSchema, invalidAddRequest), AS_ADMIN);
    const registry = createRegistry(ErrorDetailSchema, BadRequestSchema);
    // Each detail read as google.protobuf.Any, unpacked by its @type, and written back as its own message's JSON.
    const details = (json["details"] as JsonObject[]).map((detail) => {
      const unpacked = anyUnpack(fromJson(AnySchema, detail, { registry }), registry);
      const schema = unpacked === undefined ? undefined : registry.getMessage(unpacked.$typeName);
      return unpacked === undefined || schema === undefined ? undefined : toJson(schema, unpacked);
    });
    expect({ status, code: json["code"], details }).toEqual({
      status: 400,
      code: 3,
      details: [
        { id: (json["details"] as JsonObject[])[0]?.["id"], message: json["message"] },
        {
          fieldViolations: [
            { field: "profile.givenName", description: expect.any(String) },
            { field: "email.email", description: expect.any(String) },
          ],
        },
      ],
    });
    expect(store.events()).toEqual([]);
  });
});

describe("Connect, through @connectrpc/connect's client", () => {
  it("calls AddHumanUser", async () => {
    const client = createClient(UserService, connectTransport());
    const response = await client.addHumanUser(aliceRequest, { headers: AS_ADMIN });
    expect(response).toEqual(
      create(AddHumanUserResponseSchema, {
        userId: "alice-1",
        details: { sequence: lastSequence("alice-1"), changeDate: timestampFromDate(NOW), resourceOwner: "org-1" },
        emailCode: response.emailCode ?? "",
      }),
    );
    expect(response.emailCode).toMatch(/^[A-Z0-9]{6}$/);
  });

  it("calls ImportHumanUser with the organization in the x-zitadel-orgid header", async () => {
    const client = createClient(ManagementService, connectTransport());
    const response = await client.importHumanUser(
      { userName: "carol", profile: { firstName: "Carol", lastName: "Danvers" }, email: { email: "carol@acme.test", isEmailVerified: true }, password: "Secr3t!pass" },
      { headers: { ...AS_ADMIN, "x-zitadel-orgid": "org-1" } },
    );
    expect(response).toEqual(
      create(ImportHumanUserResponseSchema, {
        userId: response.userId,
        details: {
          sequence: lastSequence(response.userId),
          creationDate: timestampFromDate(NOW),
          changeDate: timestampFromDate(NOW),
          resourceOwner: "org-1",
        },
      }),
    );
  });

  it("raises a validation failure as ConnectError InvalidArgument with the REST body's details", async () => {
    const rest = await postJson("/v2/users/human", toJson(AddHumanUserRequestSchema, invalidAddRequest), AS_ADMIN);
    const client = createClient(UserService, connectTransport());
    const error = await client.addHumanUser(invalidAddRequest, { headers: AS_ADMIN }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ConnectError);
    const connectError = error as ConnectError;
    const [, badRequest] = rest.json["details"] as JsonObject[];
    expect({
      code: connectError.code,
      message: connectError.rawMessage,
      errorDetails: connectError.findDetails(ErrorDetailSchema).map((detail) => toJson(ErrorDetailSchema, detail)),
      badRequests: connectError.findDetails(BadRequestSchema).map((detail) => toJson(BadRequestSchema, detail)),
    }).toEqual({
      code: Code.InvalidArgument,
      message: rest.json["message"],
      errorDetails: [{ id: (rest.json["details"] as JsonObject[])[0]?.["id"], message: rest.json["message"] }],
      badRequests: [{ fieldViolations: badRequest?.["fieldViolations"] }],
    });
  });

  async function codeOf(call: Promise<unknown>): Promise<Code | "resolved"> {
    return call.then(
      () => "resolved" as const,
      (thrown: unknown) => (thrown instanceof ConnectError ? thrown.code : Promise.reject(thrown)),
    );
  }

  it("raises each refusal with its Connect code", async () => {
    const users = createClient(UserService, connectTransport());
    const binary = createClient(UserService, createConnectTransport({ baseUrl: served.baseUrl, httpVersion: "1.1", useBinaryFormat: true }));
    expect({
      created: await codeOf(users.addHumanUser(aliceRequest, { headers: AS_ADMIN })),
      sameUserIdAgain: await codeOf(users.addHumanUser(aliceRequest, { headers: AS_ADMIN })),
      noToken: await codeOf(users.addHumanUser(aliceRequest)),
      otherOrganization: await codeOf(users.addHumanUser(aliceIn("org-1", "alice-2"), { headers: { authorization: "Bearer org2-token" } })),
      missingOrganization: await codeOf(users.addHumanUser(aliceIn("org-9", "alice-9"), { headers: AS_ADMIN })),
      binaryFormat: await codeOf(binary.addHumanUser(aliceRequest, { headers: AS_ADMIN })),
    }).toEqual({
      created: "resolved",
      sameUserIdAgain: Code.AlreadyExists,
      noToken: Code.Unauthenticated,
      otherOrganization: Code.PermissionDenied,
      missingOrganization: Code.NotFound,
      binaryFormat: Code.InvalidArgument,
    });
  });
});
