// The first-login operations over HTTP, driven by clients nobody here wrote: the reference server's
// published protobuf types with Connect's own client on the RPC paths, the same types' JSON on the
// REST paths, and the library's own REST route for checkPassword. A person who is not signed in
// reaches every call whose proof is in the request.
import { create, fromJson, toJson, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { PasskeyAuthenticator } from "@zitadel/proto/zitadel/user/v2/auth_pb.js";
import {
  CreatePasskeyRegistrationLinkRequestSchema,
  CreatePasskeyRegistrationLinkResponseSchema,
  PasswordResetRequestSchema,
  PasswordResetResponseSchema,
  RegisterPasskeyRequestSchema,
  RegisterPasskeyResponseSchema,
  SetPasswordRequestSchema,
  SetPasswordResponseSchema,
  UnlockUserResponseSchema,
  UserService,
  VerifyPasskeyRegistrationRequestSchema,
  VerifyPasskeyRegistrationResponseSchema,
} from "@zitadel/proto/zitadel/user/v2/user_service_pb.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock, importHumanUser, memoryMailer, memoryStore, type MemoryStore, type Ports, type Requester } from "../../src/index.js";
import { createFetchHandler } from "../../src/http/index.js";
import { cheapHash, cheapHasher } from "../operations/support/first-login.js";
import { countingIds } from "../operations/support/ports.js";
import { steppingRandom } from "../operations/support/import-fixtures.js";
import { testKeys } from "../operations/support/ports.js";
import { softwareAuthenticator, type CreationOptions } from "../support/software-authenticator.js";
import { serveOnLoopback, type Served } from "./serve.js";

const NOW = new Date("2024-05-01T12:00:00Z");
const ORIGIN = "https://id.acme.test";
const REQUESTERS: Readonly<Record<string, Requester>> = { "admin-token": { userId: "admin", orgId: "org-1", instanceAdmin: true } };
const AS_ADMIN = { authorization: "Bearer admin-token" };
const OLD = "Old-Password-1";
const NEW = "New-Password-2";

let store: MemoryStore;
let ports: Ports;
let served: Served;

beforeEach(async () => {
  store = memoryStore({ organizations: [{ id: "org-1", domains: [{ domain: "acme.test", verified: true }], policy: { lockout: { maxPasswordAttempts: 2 } } }] });
  ports = {
    storage: store,
    mailer: memoryMailer(),
    clock: fixedClock(NOW),
    ids: countingIds(),
    random: steppingRandom(),
    keys: testKeys,
    passwordHasher: cheapHasher,
    config: { passkeys: { rpId: "acme.test", rpName: "Acme", origins: [ORIGIN] } },
  };
  const handler = createFetchHandler(ports, {
    authenticate: (request) => REQUESTERS[(request.headers.get("authorization") ?? "").replace(/^Bearer /, "")],
    origin: ORIGIN,
  });
  served = await serveOnLoopback(handler);
});

afterEach(async () => {
  await served.close();
});

function connectTransport(): Transport {
  return createConnectTransport({ baseUrl: served.baseUrl, httpVersion: "1.1", useBinaryFormat: false });
}

async function postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: JsonObject }> {
  const response = await fetch(`${served.baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as JsonObject };
}

/** Ann, imported with the cheap hash of OLD, a verified email and a passwordless registration link. */
async function ann(): Promise<{ userId: string; codeId: string; code: string }> {
  const body = {
    userName: "ann",
    profile: { firstName: "Ann", lastName: "Lee" },
    email: { email: "ann@acme.test", isEmailVerified: true },
    hashedPassword: { value: cheapHash(OLD) },
    requestPasswordlessRegistration: true,
  };
  const imported = (await importHumanUser(ports, body, { requester: { userId: "admin", orgId: "org-1", instanceAdmin: true }, orgId: "org-1" }))._unsafeUnwrap();
  const link = new URL(imported.passwordlessRegistration?.link ?? "");
  return { userId: imported.userId, codeId: link.searchParams.get("codeID") ?? "", code: link.searchParams.get("code") ?? "" };
}

function lastSequence(userId: string): bigint {
  return BigInt(store.events().filter((event) => event.aggregateId === userId).length);
}

function detailsOf(userId: string) {
  return { sequence: lastSequence(userId), changeDate: timestampFromDate(NOW), resourceOwner: "org-1" };
}

describe("checkPassword on the library's own REST route, without credentials", () => {
  it("answers the check, a wrong password as 400, and a locked user as 400 with code 9", async () => {
    const { userId } = await ann();
    expect(await postJson("/human-users/v1/users/_check_password", { loginName: "ann", password: OLD })).toEqual({
      status: 200,
      json: { userId, details: { sequence: "4", changeDate: "2024-05-01T12:00:00Z", resourceOwner: "org-1" } },
    });
    const wrong = await postJson("/human-users/v1/users/_check_password", { user_id: userId, password: "Not-It-1" });
    expect([wrong.status, wrong.json["code"]]).toEqual([400, 3]);
    await postJson("/human-users/v1/users/_check_password", { userId, password: "Not-It-1" });
    const locked = await postJson("/human-users/v1/users/_check_password", { userId, password: OLD });
    expect([locked.status, locked.json["code"]]).toEqual([400, 9]);
  });
});

describe("REST, with bodies from @zitadel/proto's JSON and the user id in the path", () => {
  it("resets a password (code returned to an admin) and sets it with the code, without credentials", async () => {
    const { userId } = await ann();
    const reset = await postJson(`/v2/users/${userId}/password_reset`, toJson(PasswordResetRequestSchema, create(PasswordResetRequestSchema, { medium: { case: "returnCode", value: {} } })), AS_ADMIN);
    const resetResponse = fromJson(PasswordResetResponseSchema, reset.json);
    expect([reset.status, resetResponse]).toEqual([200, create(PasswordResetResponseSchema, { details: detailsOf(userId), verificationCode: "BBBBBB" })]);

    const request = create(SetPasswordRequestSchema, { newPassword: { password: NEW }, verification: { case: "verificationCode", value: "BBBBBB" } });
    const set = await postJson(`/v2/users/${userId}/password`, toJson(SetPasswordRequestSchema, request));
    expect([set.status, fromJson(SetPasswordResponseSchema, set.json)]).toEqual([200, create(SetPasswordResponseSchema, { details: detailsOf(userId) })]);
    expect(set.json).toEqual(toJson(SetPasswordResponseSchema, fromJson(SetPasswordResponseSchema, set.json)));
  });

  it("asks an anonymous caller for credentials where the request carries no proof", async () => {
    const { userId } = await ann();
    const unlock = await postJson(`/v2/users/${userId}/unlock`, {});
    const link = await postJson(`/v2/users/${userId}/passkeys/registration_link`, { returnCode: {} });
    expect([unlock.status, unlock.json["code"], link.status, link.json["code"]]).toEqual([401, 16, 401, 16]);
  });

  it("registers a passkey from the link's code: RegisterPasskey, then VerifyPasskeyRegistration on /passkeys/{passkeyId}", async () => {
    const { userId, codeId, code } = await ann();
    const register = create(RegisterPasskeyRequestSchema, { code: { id: codeId, code }, authenticator: PasskeyAuthenticator.PLATFORM });
    const registered = await postJson(`/v2/users/${userId}/passkeys`, toJson(RegisterPasskeyRequestSchema, register));
    const response = fromJson(RegisterPasskeyResponseSchema, registered.json);
    expect([registered.status, response.passkeyId]).toEqual([200, "100000000000000003"]);

    const credential = softwareAuthenticator().create(response.publicKeyCredentialCreationOptions as unknown as CreationOptions, { origin: ORIGIN });
    const verify = create(VerifyPasskeyRegistrationRequestSchema, { publicKeyCredential: credential as JsonObject, passkeyName: "Laptop" });
    const verified = await postJson(`/v2/users/${userId}/passkeys/${response.passkeyId}`, toJson(VerifyPasskeyRegistrationRequestSchema, verify));
    expect([verified.status, fromJson(VerifyPasskeyRegistrationResponseSchema, verified.json)]).toEqual([200, create(VerifyPasskeyRegistrationResponseSchema, { details: detailsOf(userId) })]);
  });
});

describe("Connect, through @connectrpc/connect's client", () => {
  it("calls SetPassword with the current password, without credentials", async () => {
    const { userId } = await ann();
    const client = createClient(UserService, connectTransport());
    const response = await client.setPassword({ userId, newPassword: { password: NEW, changeRequired: true }, verification: { case: "currentPassword", value: OLD } });
    expect(response).toEqual(create(SetPasswordResponseSchema, { details: detailsOf(userId) }));
  });

  it("calls PasswordReset (mailed; as the login application, never without credentials) and UnlockUser (as an admin), and answers UnlockUser of an unlocked user with failed_precondition", async () => {
    const { userId } = await ann();
    const client = createClient(UserService, connectTransport());
    const anonymous = await client.passwordReset({ userId, medium: { case: "sendLink", value: { urlTemplate: "https://attacker.test/?c={{.Code}}" } } }).catch((error: unknown) => ConnectError.from(error));
    expect(anonymous instanceof ConnectError ? anonymous.code : undefined).toBe(Code.Unauthenticated);
    expect(await client.passwordReset({ userId, medium: { case: "sendLink", value: { urlTemplate: "https://app.acme.test/reset?c={{.Code}}" } } }, { headers: AS_ADMIN })).toEqual(
      create(PasswordResetResponseSchema, { details: detailsOf(userId) }),
    );
    expect((ports.mailer as ReturnType<typeof memoryMailer>).sent.map((mail) => mail.link)).toEqual(["https://app.acme.test/reset?c=BBBBBB"]);
    const refused = await client.unlockUser({ userId }, { headers: AS_ADMIN }).catch((error: unknown) => ConnectError.from(error));
    expect(refused instanceof ConnectError ? refused.code : undefined).toBe(Code.FailedPrecondition);
    for (let attempt = 0; attempt < 2; attempt++) await postJson("/human-users/v1/users/_check_password", { userId, password: "Not-It-1" });
    expect(await client.unlockUser({ userId }, { headers: AS_ADMIN })).toEqual(create(UnlockUserResponseSchema, { details: detailsOf(userId) }));
  });

  it("calls CreatePasskeyRegistrationLink, RegisterPasskey with the returned code and VerifyPasskeyRegistration", async () => {
    const { userId } = await ann();
    const client = createClient(UserService, connectTransport());
    const link = await client.createPasskeyRegistrationLink(create(CreatePasskeyRegistrationLinkRequestSchema, { userId, medium: { case: "returnCode", value: {} } }), { headers: AS_ADMIN });
    expect(link).toEqual(create(CreatePasskeyRegistrationLinkResponseSchema, { details: detailsOf(userId), code: { id: "100000000000000003", code: "bbbbbbbbbbbb" } }));

    const registered = await client.registerPasskey({ userId, code: { id: link.code?.id ?? "", code: link.code?.code ?? "" }, authenticator: PasskeyAuthenticator.CROSS_PLATFORM, domain: "acme.test" });
    const credential = softwareAuthenticator().create(registered.publicKeyCredentialCreationOptions as unknown as CreationOptions, { origin: ORIGIN });
    const verified = await client.verifyPasskeyRegistration({ userId, passkeyId: registered.passkeyId, publicKeyCredential: credential as JsonObject, passkeyName: "Key" });
    expect(verified).toEqual(create(VerifyPasskeyRegistrationResponseSchema, { details: detailsOf(userId) }));

    // Replayed: refused with invalid_argument (code 3).
    const replayed = await client
      .verifyPasskeyRegistration({ userId, passkeyId: registered.passkeyId, publicKeyCredential: credential as JsonObject, passkeyName: "Key" })
      .catch((error: unknown) => ConnectError.from(error));
    expect(replayed instanceof ConnectError ? replayed.code : undefined).toBe(Code.InvalidArgument);
  });
});
