// importHumanUser: who may import where (the organization header), the rules checked
// against storage, and failing ports.
import { ok } from "neverthrow";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { importHumanUser, StorageUnavailableError, type Logger, type OperationContext, type Requester } from "../../src/index.js";
import {
  ACME,
  details,
  errorBody,
  GLOBEX,
  id,
  importPorts,
  instanceAdmin,
  member,
  minimalImport,
  refused,
} from "./support/import-fixtures.js";
import { patchStorage, type StoragePatch } from "../support/patch-storage.js";

const context = { requester: member };
const EMPTY = { events: [], claims: [], notifications: [] };
const UNAUTHENTICATED = errorBody(16, "USER-4uth", "the request is not authenticated");
const PERMISSION_DENIED = errorBody(7, "USER-p3rm", "no permission to write users in this organization");
const ORGANIZATION_NOT_FOUND = errorBody(5, "USER-0rg5", "the organization does not exist");
const USERNAME_TAKEN = errorBody(6, "USER-n4m6", "the username is already taken");
const LINK_TAKEN = errorBody(6, "USER-l1n6", "this identity provider account is already linked to a user");
const UNKNOWN_PROVIDER = errorBody(9, "USER-1dp9", "an identity provider does not exist on the organization or the instance");
const INTERNAL = errorBody(13, "USER-1nt3", "internal error");
const UNAVAILABLE = errorBody(14, "USER-unv4", "storage is unavailable, try again later");
const RESERVED = "uses a domain verified by another organization";
/** A user whose email is on no organization's domain, so it may be imported anywhere. */
const neutral = () => ({ ...minimalImport(), email: { email: "ann@mail.test" } });

describe("importHumanUser: who is asking", () => {
  it.each([
    ["no context", undefined],
    ["an empty context", {}],
    ["a context whose requester is undefined", { requester: undefined, orgId: "acme" }],
    ["a context whose requester is null", { requester: null as unknown as Requester }],
    ["a context whose requester is false (`token && lookup(token)` in JavaScript)", { requester: false as unknown as Requester }],
    ["a context whose requester is an empty string", { requester: "" as unknown as Requester }],
  ])("answers 16 to %s and writes nothing", async (_name, noRequester) => {
    const ports = importPorts();
    const result = await importHumanUser(ports, minimalImport(), noRequester as OperationContext | undefined);
    expect(result._unsafeUnwrapErr()).toEqual(UNAUTHENTICATED);
    expect(ports.storage.snapshot()).toEqual(EMPTY);
  });

  it("checks the body's shape first (3), then the requester (16), then the fields", async () => {
    const ports = importPorts();
    const noProfile = await importHumanUser(ports, { email: { email: "ann@acme.test" } }, {});
    expect(noProfile._unsafeUnwrapErr()).toEqual(refused("profile", "is required"));
    const badField = await importHumanUser(ports, { ...minimalImport(), userName: "" }, {});
    expect(badField._unsafeUnwrapErr()).toEqual(UNAUTHENTICATED);
  });
});

describe("importHumanUser: the organization header", () => {
  const ghostMember: Requester = { userId: "u", orgId: "ghost" };
  const ghostAdmin: Requester = { userId: "root", orgId: "ghost", instanceAdmin: true };
  // [requester, header (context.orgId), the organization written to or the error]
  const rows: [string, Requester, string | undefined, string | object][] = [
    ["a member without a header: its own organization", member, undefined, "acme"],
    ["a member naming its own organization", member, "acme", "acme"],
    ["a member naming another organization", member, "globex", PERMISSION_DENIED],
    ["a member naming a missing organization", member, "ghost", PERMISSION_DENIED],
    ["a member of a missing organization without a header", ghostMember, undefined, PERMISSION_DENIED],
    ["an instance admin naming another organization", instanceAdmin, "acme", "acme"],
    ["an instance admin without a header: its own organization", instanceAdmin, undefined, "globex"],
    ["an instance admin naming a missing organization", instanceAdmin, "ghost", ORGANIZATION_NOT_FOUND],
    ["an instance admin of a missing organization without a header", ghostAdmin, undefined, ORGANIZATION_NOT_FOUND],
  ];

  it.each(rows)("answers %s", async (_name, requester, orgId, outcome) => {
    const ports = importPorts();
    const result = await importHumanUser(ports, neutral(), orgId === undefined ? { requester } : { requester, orgId });
    if (typeof outcome === "string") {
      expect(result).toEqual(ok({ userId: id(1), details: details("2", outcome) }));
      expect(ports.storage.events().map((event) => event.orgId)).toEqual([outcome, outcome]);
    } else {
      expect(result._unsafeUnwrapErr()).toEqual(outcome);
      expect(ports.storage.snapshot()).toEqual(EMPTY);
    }
  });

  it("answers 7 before looking at the fields, so a refused caller learns nothing of the rules", async () => {
    const result = await importHumanUser(importPorts(), { ...neutral(), userName: "" }, { requester: member, orgId: "globex" });
    expect(result._unsafeUnwrapErr()).toEqual(PERMISSION_DENIED);
  });

  it("asks the authorizer port, which replaces the default rule", async () => {
    const asked: unknown[] = [];
    const authorizer = {
      hasPermission: (requester: Requester, permission: string, orgId: string | undefined) => {
        asked.push([requester.userId, permission, orgId]);
        return Promise.resolve(orgId === "globex");
      },
    };
    const ports = importPorts({ authorizer });

    const own = await importHumanUser(ports, neutral(), { requester: member });
    const other = await importHumanUser(ports, neutral(), { requester: member, orgId: "globex" });

    expect(own._unsafeUnwrapErr()).toEqual(PERMISSION_DENIED);
    expect(other).toEqual(ok({ userId: id(1), details: details("2", "globex") }));
    expect(asked).toEqual([
      ["admin-of-acme", "user.write", "acme"],
      ["admin-of-acme", "user.write", "globex"],
    ]);
  });

  it("answers 13 when the authorizer port throws", async () => {
    const ports = importPorts({ authorizer: { hasPermission: () => { throw new Error("policy engine down"); } } });
    const result = await importHumanUser(ports, neutral(), context);
    expect(result._unsafeUnwrapErr()).toEqual(INTERNAL);
  });
});

describe("importHumanUser: rules against storage", () => {
  async function importTwice(first: Record<string, unknown>, second: Record<string, unknown>, ports = importPorts()) {
    const firstResult = await importHumanUser(ports, { ...minimalImport(), ...first }, context);
    expect(firstResult._unsafeUnwrap().userId).toBe(id(1));
    const before = ports.storage.snapshot();
    const result = await importHumanUser(ports, { ...minimalImport(), ...second }, context);
    return { ports, before, result };
  }

  it.each([
    ["in another case", { userName: "ann" }, { userName: "ANN", email: { email: "bob@acme.test" } }],
    ["in another Unicode normal form", { userName: "Rene\u0301" }, { userName: "REN\u00c9", email: { email: "bob@acme.test" } }],
    ["when the first took it from its email", {}, { userName: " Ann@Acme.Test " }],
    ["when the second takes it from its email", { userName: "ann@acme.test", email: { email: "other@acme.test" } }, {}],
  ])("answers 6 for a username taken %s, and writes nothing", async (_name, first, second) => {
    const { ports, before, result } = await importTwice(first, second);
    expect(result._unsafeUnwrapErr()).toEqual(USERNAME_TAKEN);
    expect(ports.storage.snapshot()).toEqual(before);
    expect(ports.mailer.attempted).toHaveLength(before.notifications.length);
  });

  it("answers 6 for a username taken in another organization", async () => {
    const ports = importPorts();
    await importHumanUser(ports, { ...minimalImport(), userName: "ann" }, { requester: instanceAdmin, orgId: "globex" });
    const result = await importHumanUser(ports, { ...minimalImport(), userName: "Ann" }, context);
    expect(result._unsafeUnwrapErr()).toEqual(USERNAME_TAKEN);
  });

  it("lets organizations whose policy says so keep usernames of their own", async () => {
    const perOrg = { policy: { userLoginMustBeDomain: true } };
    const ports = importPorts({}, { organizations: [{ ...ACME, ...perOrg }, { ...GLOBEX, ...perOrg }] });

    await importHumanUser(ports, { ...minimalImport(), userName: "ann" }, context);
    const elsewhere = await importHumanUser(ports, { ...minimalImport(), userName: "ann" }, { requester: instanceAdmin, orgId: "globex" });
    const again = await importHumanUser(ports, { ...minimalImport(), userName: "ANN" }, context);

    expect(elsewhere).toEqual(ok({ userId: id(3), details: details("2", "globex") }));
    expect(again._unsafeUnwrapErr()).toEqual(USERNAME_TAKEN);
    expect(ports.storage.claims().filter((claim) => claim.kind === "username")).toEqual([
      { kind: "username", scope: "acme", key: "ann" },
      { kind: "username", scope: "globex", key: "ann" },
    ]);
  });

  it("answers 6 for an identity provider account already linked, and writes nothing", async () => {
    const link = { configId: "idp-acme", externalUserId: "ext-1" };
    const { ports, before, result } = await importTwice({ idps: [link] }, { userName: "bob", idps: [{ ...link, displayName: "other" }] });
    expect(result._unsafeUnwrapErr()).toEqual(LINK_TAKEN);
    expect(ports.storage.snapshot()).toEqual(before);
  });

  it("links the same external id on another provider", async () => {
    const { result } = await importTwice(
      { idps: [{ configId: "idp-acme", externalUserId: "ext-1" }] },
      { userName: "bob", idps: [{ configId: "idp-global", externalUserId: "ext-1" }] },
    );
    expect(result).toEqual(ok({ userId: id(3), details: details("3") }));
  });

  it.each([
    ["an unknown identity provider", "idp-nowhere"],
    ["an identity provider of another organization", "idp-globex"],
  ])("answers 9 for %s, and writes nothing", async (_name, configId) => {
    const ports = importPorts();
    const result = await importHumanUser(ports, { ...minimalImport(), idps: [{ configId: "idp-acme", externalUserId: "a" }, { configId, externalUserId: "b" }] }, context);
    expect(result._unsafeUnwrapErr()).toEqual(UNKNOWN_PROVIDER);
    expect(ports.storage.snapshot()).toEqual(EMPTY);
  });

  it("checks the username before the providers, and the providers before the links", async () => {
    const link = { configId: "idp-acme", externalUserId: "ext-1" };
    const unknown = { configId: "idp-nowhere", externalUserId: "x" };
    const usernameFirst = await importTwice({ idps: [link] }, { idps: [unknown] });
    expect(usernameFirst.result._unsafeUnwrapErr()).toEqual(USERNAME_TAKEN);
    const providerFirst = await importTwice({ idps: [link] }, { userName: "bob", idps: [link, unknown] });
    expect(providerFirst.result._unsafeUnwrapErr()).toEqual(UNKNOWN_PROVIDER);
  });

  it.each([
    ["a userName", { userName: "ann@globex.test" }, "userName"],
    ["a userName in upper case", { userName: "ANN@GLOBEX.TEST" }, "userName"],
    ["a userName with no local part, as ZITADEL checks the text after the last @", { userName: "@globex.test" }, "userName"],
    ["the email it defaults to", { email: { email: "ann@globex.test" } }, "email.email"],
    ["the email it defaults to under a null userName", { userName: null, email: { email: "ann@globex.test" } }, "email.email"],
  ])("answers 3 for %s on a domain another organization verified", async (_name, patch, field) => {
    const ports = importPorts();
    const result = await importHumanUser(ports, { ...minimalImport(), ...patch }, context);
    expect(result._unsafeUnwrapErr()).toEqual(refused(field, RESERVED, "USER-d0m3"));
    expect(ports.storage.snapshot()).toEqual(EMPTY);
  });

  it.each([
    ["its own verified domain", context, { userName: "ann@acme.test" }, "acme"],
    ["another organization's unverified domain", { requester: instanceAdmin, orgId: "globex" }, { userName: "ann@pending.test" }, "globex"],
    ["a plain username beside an email on another organization's domain", context, { userName: "ann", email: { email: "ann@globex.test" } }, "acme"],
  ])("accepts a username on %s", async (_name, where, patch, orgId) => {
    const ports = importPorts();
    const result = await importHumanUser(ports, { ...minimalImport(), ...patch }, where);
    expect(result).toEqual(ok({ userId: id(1), details: details("2", orgId) }));
    expect(ports.storage.claims()).toEqual([
      { kind: "user_id", scope: "", key: id(1) },
      { kind: "username", scope: "", key: patch.userName },
    ]);
  });
});

describe("importHumanUser: failing ports", () => {
  function recordingLogger(): Logger & { readonly lines: unknown[] } {
    const lines: unknown[] = [];
    return { lines, warn: (fields, message) => lines.push(["warn", message, fields]), error: (fields, message) => lines.push(["error", message, fields]) };
  }

  /** The shared ports with one storage method replaced; the memory store underneath shows what was written. */
  function withStorage(change: StoragePatch) {
    const logger = recordingLogger();
    const ports = importPorts({ logger });
    return { ports: { ...ports, storage: patchStorage(ports.storage, change) }, store: ports.storage, logger, mailer: ports.mailer };
  }

  it("answers 13 when storage.userLog.append throws, writes nothing and gives the cause to the logger only", async () => {
    const cause = new Error("disk on fire at /var/lib/users");
    const { ports, store, logger, mailer } = withStorage({ userLog: { append: () => { throw cause; } } });

    const result = await importHumanUser(ports, { ...minimalImport(), password: "Plain-Secret-42" }, context);

    expect(result._unsafeUnwrapErr()).toEqual(INTERNAL);
    expect(store.snapshot()).toEqual(EMPTY);
    expect(mailer.attempted).toEqual([]);
    expect(logger.lines).toEqual([["error", "human-users: storage write failed", { err: cause }]]);
  });

  it.each([
    ["the class", new StorageUnavailableError("connection refused")],
    ["another copy of the class (by name)", Object.assign(new Error("connection refused"), { name: "StorageUnavailableError" })],
  ])("answers 14 when storage.userLog.append rejects with StorageUnavailableError (%s)", async (_name, cause) => {
    const { ports, store, mailer } = withStorage({ userLog: { append: () => Promise.reject(cause) } });

    const result = await importHumanUser(ports, minimalImport(), context);

    expect(result._unsafeUnwrapErr()).toEqual(UNAVAILABLE);
    expect(store.snapshot()).toEqual(EMPTY);
    expect(mailer.attempted).toEqual([]);
  });

  it.each([
    ["findOrganization", { directory: { findOrganization: () => Promise.reject(new StorageUnavailableError("down")) } }, "idp-acme", UNAVAILABLE],
    // Claims are looked up only when the directory refuses the user (here: a provider unknown to it).
    ["findHeldClaims", { userLog: { findHeldClaims: () => Promise.reject(new Error("bad query")) } }, "idp-unknown", INTERNAL],
    ["findIdentityProvider", { directory: { findIdentityProvider: () => Promise.reject(new StorageUnavailableError("down")) } }, "idp-acme", UNAVAILABLE],
    ["findOrganizationByDomain", { directory: { findOrganizationByDomain: () => Promise.reject(new Error("bad query")) } }, "idp-acme", INTERNAL],
  ] as const)("answers when storage.%s fails, and writes nothing", async (_name, change, configId, expected) => {
    const { ports, store } = withStorage(change);
    const result = await importHumanUser(ports, { ...minimalImport(), idps: [{ configId, externalUserId: "x" }] }, context);
    expect(result._unsafeUnwrapErr()).toEqual(expected);
    expect(store.snapshot()).toEqual(EMPTY);
  });

  it("answers 6 when the write itself finds the username taken (a concurrent import won the race)", async () => {
    const { ports, store } = withStorage({ userLog: { findHeldClaims: () => Promise.resolve([]) } });
    await importHumanUser(ports, minimalImport(), context);
    const before = store.snapshot();

    const result = await importHumanUser(ports, { ...minimalImport(), userName: "ANN@acme.test" }, context);

    expect(result._unsafeUnwrapErr()).toEqual(USERNAME_TAKEN);
    expect(store.snapshot()).toEqual(before);
  });

  const quiet = { email: { email: "ann@acme.test", isEmailVerified: true }, password: "Secr3t!pw" };
  it.each([
    ["the user id", [""], {}, "must not be empty"],
    ["the user id (a number)", [7], {}, "must be a string, not a number"],
    ["the initialization mail's id", [id(1), "x".repeat(201)], {}, "must be at most 200 characters long"],
    ["the passwordless code's id", [id(1), null], { ...quiet, requestPasswordlessRegistration: true }, "must be a string, not null"],
  ])("answers 13, logs why and writes nothing when the id generator gives an unusable id for %s", async (_name, ids, patch, problem) => {
    let drawn = 0;
    const causes: unknown[] = [];
    const logger: Logger = { warn: () => undefined, error: (fields) => void causes.push(fields["err"]) };
    const ports = importPorts({ ids: { next: () => ids[drawn++] as string }, logger });
    expect((await importHumanUser(ports, { ...minimalImport(), ...patch }, context))._unsafeUnwrapErr()).toEqual(INTERNAL);
    expect(causes).toEqual([new Error(`ports.ids.next() gave an unusable id: ${problem}`)]);
    expect(ports.storage.snapshot()).toEqual(EMPTY);
    expect(ports.mailer.attempted).toEqual([]);
  });

  it("answers 13 when the id generator or the clock throws", async () => {
    const brokenIds = importPorts({ ids: { next: () => { throw new Error("no ids"); } } });
    expect((await importHumanUser(brokenIds, minimalImport(), context))._unsafeUnwrapErr()).toEqual(INTERNAL);
    const brokenClock = importPorts({ clock: { now: () => { throw new Error("no time"); } } });
    expect((await importHumanUser(brokenClock, minimalImport(), context))._unsafeUnwrapErr()).toEqual(INTERNAL);
    expect([brokenIds.storage.snapshot(), brokenClock.storage.snapshot()]).toEqual([EMPTY, EMPTY]);
  });

  it("answers 13, writing nothing and logging why, when a time it derives from the clock is past year 9999 (a code's expiry)", async () => {
    const logged: unknown[] = [];
    const logger = { warn: () => undefined, error: (fields: Readonly<Record<string, unknown>>) => void logged.push(fields["err"]) };
    // The initialization code expires 72 hours after the last millisecond of year 9999.
    const ports = importPorts({ clock: { now: () => new Date("9999-12-31T23:59:59.999Z") }, logger });
    expect((await importHumanUser(ports, minimalImport(), context))._unsafeUnwrapErr()).toEqual(INTERNAL);
    expect(logged).toEqual([new RangeError("a time outside the years 0001 to 9999 that RFC 3339 writes and PostgreSQL stores")]);
    expect(ports.storage.snapshot()).toEqual(EMPTY);
  });

  it("takes the first instant of year 0001", async () => {
    expect((await importHumanUser(importPorts({ clock: { now: () => new Date("0001-01-01T00:00:00Z") } }), minimalImport(), context)).isOk()).toBe(true);
  });

  it("takes a Date made in another realm (a vm context) as any Date", async () => {
    const foreign = runInNewContext("new Date(Date.UTC(2026, 2, 4, 5, 6, 7))") as Date;
    expect(foreign instanceof Date).toBe(false);
    const ports = importPorts({ clock: { now: () => foreign } });
    expect((await importHumanUser(ports, minimalImport(), context)).isOk()).toBe(true);
  });

  it.each([
    ["an invalid date", new Date(Number.NaN), "ports.clock.now() gave no valid time"],
    ["a time after year 9999", new Date(Date.UTC(10_000, 0, 1)), "ports.clock.now() gave a time outside the years 0001 to 9999 that RFC 3339 writes and PostgreSQL stores"],
    // PostgreSQL has no year 0 (1 BC comes before 1 AD): the SQL stores answered 13 where memory wrote.
    ["a time in year 0000", new Date("0000-06-01T00:00:00Z"), "ports.clock.now() gave a time outside the years 0001 to 9999 that RFC 3339 writes and PostgreSQL stores"],
    ["a time before year 0000", new Date(-62_167_219_200_001), "ports.clock.now() gave a time outside the years 0001 to 9999 that RFC 3339 writes and PostgreSQL stores"],
    ["a number", 1_700_000_000_000, "ports.clock.now() gave no valid time"],
    ["an object that only looks like a Date", { getTime: (): number => 1_700_000_000_000 }, "ports.clock.now() gave no valid time"],
  ])("answers 13, writing nothing and logging why, when the clock gives %s", async (_, now, cause) => {
    const logged: unknown[] = [];
    const logger = { warn: () => undefined, error: (fields: Readonly<Record<string, unknown>>) => void logged.push(fields["err"]) };
    const ports = importPorts({ clock: { now: () => now as Date }, logger });
    expect((await importHumanUser(ports, minimalImport(), context))._unsafeUnwrapErr()).toEqual(INTERNAL);
    expect(logged).toEqual([new Error(cause)]);
    expect(ports.storage.snapshot()).toEqual(EMPTY);
  });
});
