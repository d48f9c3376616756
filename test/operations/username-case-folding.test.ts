// Usernames that full case folding makes equal (contract section 4: NFKC_Casefold) are one username,
// on the memory store and on the SQL store (PGlite); the username is stored as given.
import { err } from "neverthrow";
import { afterAll, describe, expect, it } from "vitest";
import { createHumanUser, type Storage } from "../../src/index.js";
import { PgliteSchemas } from "../storage/databases.js";
import { ACME, FIRST_ID, GLOBEX, instanceAdmin, member, minimalCreate, plainError, testPorts } from "./support/ports.js";

const pglite = new PgliteSchemas();
afterAll(() => pglite.close());

const stores: [string, () => Promise<Storage | undefined>][] = [
  ["memory", () => Promise.resolve(undefined)],
  ["PGlite", async () => (await pglite.subject("folding", { organizations: [ACME, GLOBEX], identityProviders: [] })).storage],
];

const taken = err(plainError(6, "USER-n4m6", "the username is already taken"));

describe.each(stores)("on the %s store", (_name, openStorage) => {
  it("answers 6 for straße after STRASSE, and for every spelling that folds to it", async () => {
    const storage = await openStorage();
    const ports = testPorts(storage === undefined ? {} : { storage });
    const create = (username: string) => createHumanUser(ports, { ...minimalCreate(), username }, { requester: member });
    expect((await create("STRASSE")).isOk()).toBe(true);
    expect(await create("straße")).toEqual(taken);
    for (const username of ["Strasse", "STRAẞE", "ſtraſſe", "ＳＴＲＡＳＳＥ", "stras\u00adse"]) expect(await create(username)).toEqual(taken);
    // Across organizations too, when usernames are unique instance-wide.
    expect(await createHumanUser(ports, { ...minimalCreate(), username: "straße", organization: { orgId: "globex" } }, { requester: instanceAdmin })).toEqual(taken);
    expect((await create("strase")).isOk()).toBe(true);
    expect((await ports.storage.userLog.loadEvents(FIRST_ID))[0]?.payload["userName"]).toBe("STRASSE");
  });

  it("answers 6 for the Greek final sigma, the long s and a ligature folded like their plain letters", async () => {
    const storage = await openStorage();
    const ports = testPorts(storage === undefined ? {} : { storage });
    const create = (username: string) => createHumanUser(ports, { ...minimalCreate(), username }, { requester: member });
    for (const [first, second] of [["ΌΣΟΣ", "όσοσ"], ["ΑΣ", "ασ"], ["ſam", "SAM"], ["ﬁx", "FIX"]] as const) {
      expect((await create(first)).isOk()).toBe(true);
      expect(await create(second)).toEqual(taken);
    }
  });
});
