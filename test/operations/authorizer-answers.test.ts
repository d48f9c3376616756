// An authorizer that answers anything but a boolean is a broken port: the call answers 13 and
// writes nothing, rather than reading a truthy "false" or 1 as permission (failing open).
import { err } from "neverthrow";
import { describe, expect, it } from "vitest";
import { createHumanUser, getUser, importHumanUser, listUsers, setPassword, type Authorizer } from "../../src/index.js";
import { member, minimalCreate, plainError, testPorts } from "./support/ports.js";

const internalError = err(plainError(13, "USER-1nt3", "internal error"));
const answers: readonly unknown[] = ["false", "yes", 1, 0, null, undefined, {}, Promise.resolve("true")];

function portsAnswering(answer: unknown) {
  const logged: string[] = [];
  const authorizer = { hasPermission: () => answer } as unknown as Authorizer;
  const logger = { warn: () => undefined, error: (fields: Readonly<Record<string, unknown>>, message: string) => void logged.push(`${message}: ${String((fields["err"] as Error).message)}`) };
  return { ports: testPorts({ authorizer, logger }), logged };
}

describe("an authorizer that answers something other than true or false", () => {
  it.each(answers.map((answer) => [String(answer), answer]))("answered %s: creation and import answer 13, write nothing and log why", async (_, answer) => {
    const { ports, logged } = portsAnswering(answer);
    expect(await createHumanUser(ports, minimalCreate(), { requester: member })).toEqual(internalError);
    expect(await importHumanUser(ports, { userName: "bob", profile: { firstName: "Bob", lastName: "Lee" }, email: { email: "bob@acme.test" } }, { requester: member })).toEqual(internalError);
    expect(ports.storage.snapshot()).toMatchObject({ events: [], notifications: [] });
    expect(logged).toEqual(Array(2).fill(`human-users: authorizer failed: the authorizer answered ${typeof (await answer)}, not true or false`));
  });

  it.each(answers.map((answer) => [String(answer), answer]))("answered %s: reads and changes of an existing user answer 13", async (_, answer) => {
    const { ports } = portsAnswering(answer);
    const created = await createHumanUser({ ...ports, authorizer: { hasPermission: () => true } }, minimalCreate(), { requester: member });
    const userId = created._unsafeUnwrap().userId;
    const before = ports.storage.snapshot();
    expect(await getUser(ports, { userId }, { requester: member })).toEqual(internalError);
    expect(await listUsers(ports, {}, { requester: member })).toEqual(internalError);
    expect(await setPassword(ports, { userId, newPassword: { password: "Secret-pass2" } }, { requester: member })).toEqual(internalError);
    expect(ports.storage.snapshot()).toEqual(before);
  });
});
