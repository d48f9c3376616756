// The links mailed to an existing user are checked with the user's own values, as a new user's
// are: templates are checked with sample values, and a user id put into the host can still make
// a link that is no URL. The request's template is refused (3, naming it); a configured one is the
// host's failure (13, logged). Nothing is written either way.
import { err, ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import {
  createHumanUser,
  createPasskeyRegistrationLink,
  importHumanUser,
  passwordReset,
  resendEmailCode,
  resendInitialization,
  type HumanUsersConfig,
} from "../../../src/index.js";
import { invalidBody, member, plainError, testPorts, type TestPorts } from "../support/ports.js";

/** A user id that fits a path or a query, but not a host. */
const USER_ID = "a b";
const IN_THE_HOST = "https://x.test{{.UserID}}/go?code={{.Code}}";
const INTERNAL = err(plainError(13, "USER-1nt3", "internal error"));
const refused = (field: string) => err(invalidBody([{ field, description: "must give an absolute http or https URL with this user's id" }]));

/** A user with the id above and an email code pending (created with the code returned, so no link was made). */
async function withUser(config?: HumanUsersConfig): Promise<{ ports: TestPorts; logged: string[] }> {
  const logged: string[] = [];
  const logger = { warn: () => undefined, error: (_fields: unknown, message: string) => void logged.push(message) };
  const ports = testPorts({ logger, ...(config === undefined ? {} : { config }) });
  const created = await createHumanUser(ports, { userId: USER_ID, profile: { givenName: "Ann", familyName: "Lee" }, email: { email: "ann@acme.test", returnCode: {} } }, { requester: member });
  expect(created.isOk()).toBe(true);
  return { ports, logged };
}

/** An imported user still waiting for its initialization (its first mail made with `config`), given the id above by the id generator. */
async function withImportedUser(config: HumanUsersConfig): Promise<{ ports: TestPorts; logged: string[] }> {
  const logged: string[] = [];
  const logger = { warn: () => undefined, error: (_fields: unknown, message: string) => void logged.push(message) };
  let drawn = 0;
  const ids = { next: () => (drawn++ === 0 ? USER_ID : `id-${drawn}`) };
  const ports = testPorts({ logger, config, ids });
  const imported = await importHumanUser(ports, { username: "ann", profile: { firstName: "Ann", lastName: "Lee" }, email: { email: "ann@acme.test" } }, { requester: member });
  expect(imported.map((response) => response.userId)).toEqual(ok(USER_ID));
  return { ports, logged };
}

async function unchanged(ports: TestPorts, run: () => unknown): Promise<unknown> {
  const events = ports.storage.events().length;
  const sent = ports.mailer.sent.length;
  const result = await run();
  expect(ports.storage.events().length).toBe(events);
  expect(ports.mailer.sent.length).toBe(sent);
  return result;
}

describe("links with the user's own values", () => {
  it("resendEmailCode refuses a sendCode.urlTemplate that puts the user's id into the host", async () => {
    const { ports } = await withUser();
    expect(await unchanged(ports, () => resendEmailCode(ports, { userId: USER_ID, sendCode: { urlTemplate: IN_THE_HOST } }, { requester: member }))).toEqual(refused("sendCode.urlTemplate"));
  });

  it("passwordReset refuses a sendLink.urlTemplate that puts the user's id into the host", async () => {
    const { ports } = await withUser();
    const request = { userId: USER_ID, sendLink: { notificationType: "NOTIFICATION_TYPE_Email", urlTemplate: IN_THE_HOST } };
    expect(await unchanged(ports, () => passwordReset(ports, request, { requester: member }))).toEqual(refused("sendLink.urlTemplate"));
  });

  it("createPasskeyRegistrationLink refuses a sendLink.urlTemplate that puts the user's id into the host", async () => {
    const { ports } = await withUser();
    const request = { userId: USER_ID, sendLink: { urlTemplate: "https://x.test{{.UserID}}/go?code={{.Code}}&id={{.CodeID}}" } };
    expect(await unchanged(ports, () => createPasskeyRegistrationLink(ports, request, { requester: member }))).toEqual(refused("sendLink.urlTemplate"));
  });

  const configured: readonly (readonly [string, HumanUsersConfig, (ports: TestPorts) => unknown])[] = [
    ["resendEmailCode", { emailVerificationUrlTemplate: "https://{{.UserID}}.app.test/v?code={{.Code}}" }, (ports) => resendEmailCode(ports, { userId: USER_ID }, { requester: member })],
    ["passwordReset", { passwordResetUrlTemplate: "https://{{.UserID}}.app.test/r?code={{.Code}}" }, (ports) => passwordReset(ports, { userId: USER_ID }, { requester: member })],
    ["createPasskeyRegistrationLink", { passkeyRegistrationUrlTemplate: "https://{{.UserID}}.app.test/p?code={{.Code}}&id={{.CodeID}}" }, (ports) => createPasskeyRegistrationLink(ports, { userId: USER_ID, sendLink: {} }, { requester: member })],
  ];

  it.each(configured)("%s answers 13 and logs it when the configured template puts the user's id into the host", async (_name, config, call) => {
    const { ports, logged } = await withUser(config);
    expect(await unchanged(ports, () => call(ports))).toEqual(INTERNAL);
    expect(logged).toEqual(["human-users: link configuration failed"]);
  });

  it("resendInitialization answers 13 and logs it when the configured template puts the user's id into the host", async () => {
    const { ports, logged } = await withImportedUser({ initializationUrlTemplate: "https://x.test/i?code={{.Code}}&u={{.UserID}}" });
    // The same store, now behind a host that configured a template putting the id into the host.
    const later: TestPorts = { ...ports, config: { initializationUrlTemplate: "https://{{.UserID}}.app.test/i?code={{.Code}}" } };
    expect(await unchanged(later, () => resendInitialization(later, { userId: USER_ID }, { requester: member }))).toEqual(INTERNAL);
    expect(logged).toEqual(["human-users: link configuration failed"]);
  });
});
