// The functions after creation over HTTP, driven by clients nobody here wrote: the reference
// server's published protobuf types and Connect's own client reach every route the reference
// server has (and REST reaches the library's own verifyInitCode route), against the handler on a
// loopback port.
import { create, fromJson, toJson, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ManagementService, ResendHumanInitializationResponseSchema } from "@zitadel/proto/zitadel/management_pb.js";
import { TextQueryMethod } from "@zitadel/proto/zitadel/object/v2/object_pb.js";
import { UserFieldName } from "@zitadel/proto/zitadel/user/v2/query_pb.js";
import { Gender, UserState } from "@zitadel/proto/zitadel/user/v2/user_pb.js";
import {
  GetUserByIDResponseSchema,
  ListUsersRequestSchema,
  ListUsersResponseSchema,
  ResendEmailCodeResponseSchema,
  ResendPhoneCodeResponseSchema,
  UserService,
  VerifyEmailResponseSchema,
  VerifyPhoneResponseSchema,
} from "@zitadel/proto/zitadel/user/v2/user_service_pb.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock, memoryMailer, memoryStore, type MemoryMailer, type MemoryStore, type Requester } from "../../src/index.js";
import { createFetchHandler } from "../../src/http/index.js";
import { restError } from "./expected-errors.js";
import { serveOnLoopback, type Served } from "./serve.js";

const NOW = new Date("2024-05-01T12:00:00Z");
const REQUESTERS: Readonly<Record<string, Requester>> = {
  "admin-token": { userId: "admin", orgId: "org-1", instanceAdmin: true },
  "org2-token": { userId: "member-2", orgId: "org-2" },
};
const AS_ADMIN = { authorization: "Bearer admin-token" };
const AS_ORG2 = { authorization: "Bearer org2-token" };
const SMS_SENT: string[] = [];

let store: MemoryStore;
let mailer: MemoryMailer;
let served: Served;

beforeEach(async () => {
  store = memoryStore({
    organizations: [
      { id: "org-1", domains: [{ domain: "acme.test", verified: true }] },
      { id: "org-2", domains: [{ domain: "other.test", verified: true }] },
    ],
  });
  mailer = memoryMailer();
  SMS_SENT.length = 0;
  const sms = { send: (message: { code: string }) => (SMS_SENT.push(message.code), Promise.resolve()) };
  const handler = createFetchHandler(
    { storage: store, mailer, clock: fixedClock(NOW), sms },
    { authenticate: (request) => REQUESTERS[(request.headers.get("authorization") ?? "").replace(/^Bearer /, "")] },
  );
  served = await serveOnLoopback(handler);
});

afterEach(async () => {
  await served.close();
});

function transport(): Transport {
  return createConnectTransport({ baseUrl: served.baseUrl, httpVersion: "1.1", useBinaryFormat: false });
}

function sequenceOf(userId: string): bigint {
  return BigInt(store.events().filter((event) => event.aggregateId === userId).length);
}

/** Ann in org-1 with an email code mailed and a phone code texted; the createHumanUser route itself. */
async function createAnn(): Promise<string> {
  const users = createClient(UserService, transport());
  const created = await users.addHumanUser(
    {
      userId: "ann-1",
      username: "ann",
      organization: { org: { case: "orgId", value: "org-1" } },
      profile: { givenName: "Ann", familyName: "Lee", gender: Gender.FEMALE },
      email: { email: "ann@acme.test", verification: { case: "sendCode", value: {} } },
      phone: { phone: "+41791234567", verification: { case: "sendCode", value: {} } },
    },
    { headers: AS_ADMIN },
  );
  return created.userId;
}

async function call(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: JsonObject }> {
  const response = await fetch(`${served.baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as JsonObject };
}

const details = (userId: string, resourceOwner = "org-1") => ({ sequence: sequenceOf(userId), changeDate: timestampFromDate(NOW), resourceOwner });

describe("Connect, through @connectrpc/connect's client", () => {
  it("GetUserByID answers the whole user", async () => {
    const userId = await createAnn();
    const response = await createClient(UserService, transport()).getUserByID({ userId }, { headers: AS_ADMIN });
    expect(response).toEqual(
      create(GetUserByIDResponseSchema, {
        details: { ...details(userId), creationDate: timestampFromDate(NOW) },
        user: {
          userId,
          details: { ...details(userId), creationDate: timestampFromDate(NOW) },
          state: UserState.ACTIVE,
          username: "ann",
          loginNames: ["ann"],
          preferredLoginName: "ann",
          type: {
            case: "human",
            value: {
              profile: { givenName: "Ann", familyName: "Lee", nickName: "", displayName: "Ann Lee", preferredLanguage: "und", gender: Gender.FEMALE },
              email: { email: "ann@acme.test" },
              phone: { phone: "+41791234567" },
            },
          },
        },
      }),
    );
  });

  it("VerifyEmail and VerifyPhone take the codes without credentials", async () => {
    const userId = await createAnn();
    const users = createClient(UserService, transport());
    const email = await users.verifyEmail({ userId, verificationCode: mailer.sent[0]?.code ?? "" });
    expect(email).toEqual(create(VerifyEmailResponseSchema, { details: details(userId) }));
    const phone = await users.verifyPhone({ userId, verificationCode: SMS_SENT[0] ?? "" });
    expect(phone).toEqual(create(VerifyPhoneResponseSchema, { details: details(userId) }));
    const user = await users.getUserByID({ userId }, { headers: AS_ADMIN });
    expect(user.user?.type.case === "human" ? [user.user.type.value.email?.isVerified, user.user.type.value.phone?.isVerified] : []).toEqual([true, true]);
  });

  it("ResendEmailCode and ResendPhoneCode return new codes when asked", async () => {
    const userId = await createAnn();
    const users = createClient(UserService, transport());
    const email = await users.resendEmailCode({ userId, verification: { case: "returnCode", value: {} } }, { headers: AS_ADMIN });
    expect(email).toEqual(create(ResendEmailCodeResponseSchema, { details: details(userId), verificationCode: email.verificationCode ?? "" }));
    const phone = await users.resendPhoneCode({ userId, verification: { case: "returnCode", value: {} } }, { headers: AS_ADMIN });
    expect(phone).toEqual(create(ResendPhoneCodeResponseSchema, { details: details(userId), verificationCode: phone.verificationCode ?? "" }));
    expect([email.verificationCode, phone.verificationCode]).toEqual([expect.stringMatching(/^[A-Z0-9]{6}$/), expect.stringMatching(/^[A-Z0-9]{6}$/)]);
    await users.resendEmailCode({ userId, verification: { case: "sendCode", value: { urlTemplate: "https://app.test/v?u={{.UserID}}&c={{.Code}}" } } }, { headers: AS_ADMIN });
    expect(mailer.sent.at(-1)?.link).toBe(`https://app.test/v?u=${userId}&c=${mailer.sent.at(-1)?.code ?? ""}`);
  });

  it("ListUsers answers a page with its total, sorted and filtered", async () => {
    const userId = await createAnn();
    const request = create(ListUsersRequestSchema, {
      query: { limit: 10, asc: true },
      sortingColumn: UserFieldName.USER_NAME,
      queries: [{ query: { case: "loginNameQuery", value: { loginName: "ANN", method: TextQueryMethod.EQUALS_IGNORE_CASE } } }],
    });
    const response = await createClient(UserService, transport()).listUsers(request, { headers: AS_ADMIN });
    const user = (await createClient(UserService, transport()).getUserByID({ userId }, { headers: AS_ADMIN })).user;
    expect(response).toEqual(
      create(ListUsersResponseSchema, { details: { totalResult: 1n, timestamp: timestampFromDate(NOW) }, result: user === undefined ? [] : [user] }),
    );
    const elsewhere = await createClient(UserService, transport()).listUsers(request, { headers: AS_ORG2 });
    expect(elsewhere).toEqual(create(ListUsersResponseSchema, { details: { timestamp: timestampFromDate(NOW) } }));
  });

  it("ResendHumanInitialization mails a new code to the new address", async () => {
    const management = createClient(ManagementService, transport());
    const imported = await management.importHumanUser({ userName: "bob", profile: { firstName: "Bob", lastName: "Stone" }, email: { email: "bob@acme.test" } }, { headers: { ...AS_ADMIN, "x-zitadel-orgid": "org-1" } });
    const response = await management.resendHumanInitialization({ userId: imported.userId, email: "robert@acme.test" }, { headers: AS_ADMIN });
    expect(response).toEqual(create(ResendHumanInitializationResponseSchema, { details: { sequence: sequenceOf(imported.userId), changeDate: timestampFromDate(NOW), resourceOwner: "org-1" } }));
    expect(mailer.sent.map((mail) => [mail.kind, mail.to])).toEqual([
      ["email.initialization", "bob@acme.test"],
      ["email.initialization", "robert@acme.test"],
    ]);
  });

  it("raises each refusal with its Connect code: 5 outside the requester's reach, never 7", async () => {
    const userId = await createAnn();
    const users = createClient(UserService, transport());
    const codeOf = (promise: Promise<unknown>) => promise.then(() => "resolved", (thrown: unknown) => (thrown instanceof ConnectError ? thrown.code : "other"));
    expect({
      otherOrganization: await codeOf(users.getUserByID({ userId }, { headers: AS_ORG2 })),
      noToken: await codeOf(users.getUserByID({ userId })),
      unknown: await codeOf(users.getUserByID({ userId: "nobody" }, { headers: AS_ADMIN })),
      wrongCode: await codeOf(users.verifyEmail({ userId, verificationCode: "XXXXXX" })),
      resendNoToken: await codeOf(users.resendEmailCode({ userId })),
      phoneVerifiedTwice: await codeOf(users.verifyPhone({ userId, verificationCode: SMS_SENT[0] ?? "" }).then(() => users.verifyPhone({ userId, verificationCode: SMS_SENT[0] ?? "" }))),
    }).toEqual({
      otherOrganization: Code.NotFound,
      noToken: Code.Unauthenticated,
      unknown: Code.NotFound,
      wrongCode: Code.InvalidArgument,
      resendNoToken: Code.Unauthenticated,
      phoneVerifiedTwice: Code.FailedPrecondition,
    });
  });
});

describe("REST on the reference server's paths", () => {
  it("GET /v2/users/{userId} answers protobuf's canonical JSON of GetUserByIDResponse", async () => {
    const userId = await createAnn();
    const { status, json } = await call("GET", `/v2/users/${userId}`, undefined, AS_ADMIN);
    expect(status).toBe(200);
    expect(json).toEqual(toJson(GetUserByIDResponseSchema, fromJson(GetUserByIDResponseSchema, json)));
    expect(fromJson(GetUserByIDResponseSchema, json).user?.userId).toBe(userId);
  });

  it("POST /v2/users answers protobuf's canonical JSON of ListUsersResponse", async () => {
    await createAnn();
    const { status, json } = await call("POST", "/v2/users", { queries: [{ emailQuery: { emailAddress: "ann@", method: "TEXT_QUERY_METHOD_STARTS_WITH" } }] }, AS_ADMIN);
    expect(status).toBe(200);
    expect(json).toEqual(toJson(ListUsersResponseSchema, fromJson(ListUsersResponseSchema, json)));
    expect(fromJson(ListUsersResponseSchema, json).details?.totalResult).toBe(1n);
  });

  it("takes the user id from the path over the body's, and serves code redemptions without credentials", async () => {
    const userId = await createAnn();
    const code = mailer.sent[0]?.code ?? "";
    expect(await call("POST", `/v2/users/${userId}/email/verify`, { userId: "someone-else", verificationCode: code })).toEqual({
      status: 200,
      json: toJson(VerifyEmailResponseSchema, create(VerifyEmailResponseSchema, { details: details(userId) })),
    });
    expect(await call("POST", `/v2/users/${userId}/phone/verify`, { verification_code: "XXXXXX" })).toEqual({
      status: 400,
      json: restError(3, "USER-c0d3", "the phone verification code is not valid"),
    });
    expect(await call("POST", `/v2/users/${userId}/email/resend`, {})).toEqual({ status: 401, json: restError(16, "HTTP-4uth", "authentication required") });
    expect((await call("POST", `/v2/users/${userId}/phone/resend`, { returnCode: {} }, AS_ADMIN)).status).toBe(200);
  });

  it("serves resendInitialization on the management path and verifyInitCode on the library's own", async () => {
    const management = createClient(ManagementService, transport());
    const { userId } = await management.importHumanUser({ userName: "bob", profile: { firstName: "Bob", lastName: "Stone" }, email: { email: "bob@acme.test" } }, { headers: { ...AS_ADMIN, "x-zitadel-orgid": "org-1" } });
    expect((await call("POST", `/management/v1/users/${userId}/_resend_initialization`, {}, AS_ADMIN)).status).toBe(200);
    const code = mailer.sent.at(-1)?.code ?? "";
    const verified = await call("POST", `/human-users/v1/users/${encodeURIComponent(userId)}/initialization/verify`, { verificationCode: code, password: "Fresh-start9" });
    expect(verified).toEqual({ status: 200, json: { details: { sequence: String(sequenceOf(userId)), changeDate: "2024-05-01T12:00:00Z", resourceOwner: "org-1" } } });
    const user = fromJson(GetUserByIDResponseSchema, (await call("GET", `/v2/users/${userId}`, undefined, AS_ADMIN)).json).user;
    expect(user?.state).toBe(UserState.ACTIVE);
  });

  it("answers a user id the path cannot carry as an unknown route, and an empty one too", async () => {
    expect(await call("GET", "/v2/users/%E0%A4%A", undefined, AS_ADMIN)).toEqual({ status: 404, json: restError(5, "HTTP-r0ut", 'no operation at "/v2/users/%E0%A4%A"') });
    expect(await call("GET", "/v2/users/", undefined, AS_ADMIN)).toEqual({ status: 404, json: restError(5, "HTTP-r0ut", 'no operation at "/v2/users/"') });
  });
});
