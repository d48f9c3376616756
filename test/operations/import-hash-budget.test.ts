// The cost budget at import is the one a later verification on the same runtime applies: a hash
// is costed at the speed of the path this runtime will run it on (native or pure JS), so that no
// user is imported whose every login would then be refused as too expensive.
import { afterEach, describe, expect, it } from "vitest";
import { importHumanUser } from "../../src/index.js";
import { err } from "neverthrow";
import { useNativeImplementations, verifyPassword } from "../../src/passwords/index.js";
import { invalidBody, member } from "./support/ports.js";
import { importPorts, minimalImport } from "./support/import-fixtures.js";

// argon2id with m = 128 MiB and t = 4: within budget at native speed, about 24 times over it in pure JS.
const ARGON2_HASH = "$argon2id$v=19$m=131072,t=4,p=1$tm2YKJg/58/cNu8p7XiDbA$ieuilTAtAGcAn3DzdjilIZoA3P6GAdyIGaqr3a7hG/s";
const OVER_BUDGET = "argon2 hash: m and t is out of range (estimated cost at most 2064 ms)";
const request = { ...minimalImport(), hashedPassword: { value: ARGON2_HASH } };
const context = { requester: member };

afterEach(() => {
  useNativeImplementations(true);
});

describe("importHumanUser: the cost budget of an imported hash", () => {
  it("is refused where this runtime would run it in pure JS, as every verification of it would be", async () => {
    useNativeImplementations(false);
    const ports = importPorts();
    expect(await importHumanUser(ports, request, context)).toEqual(err(invalidBody([{ field: "hashedPassword.value", description: OVER_BUDGET }])));
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
    expect((await verifyPassword(ARGON2_HASH, "anything"))._unsafeUnwrapErr().message).toBe(OVER_BUDGET);
  });

  it("takes a hash within the budget in pure JS too, where this runtime would run it in pure JS", async () => {
    useNativeImplementations(false);
    const ports = importPorts();
    const owasp = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";
    expect((await importHumanUser(ports, { ...minimalImport(), hashedPassword: { value: owasp } }, context)).isOk()).toBe(true);
  });
});
