// Every operation answers the configuration check's verdict before it does anything: code 9 naming
// the setting, for ports that cannot work, instead of hanging or answering what the setting lies about.
import { err } from "neverthrow";
import { describe, expect, it } from "vitest";
import { checkPassword, createHumanUser, getUser, importHumanUser, importHumanUsers, listUsers, passwordReset, type HumanUsersConfig, type OperationContext, type Ports } from "../../src/index.js";
import { collect } from "../bulk/support.js";
import { FIRST_ID, member, minimalCreate, plainError, testPorts } from "./support/ports.js";

const context = { requester: member };
const importRequest = { userName: "ann", profile: { firstName: "Ann", lastName: "Lee" }, email: { email: "ann@acme.test" } };

function configurationError(problem: string) {
  return plainError(9, "USER-c0nf", `invalid configuration: ${problem}`);
}

describe("operations with a configuration that cannot work", () => {
  it("answer 9 naming an empty code alphabet, and write nothing (it made codes of 'undefined')", async () => {
    const ports = testPorts({ config: { codes: { email: { alphabet: "" } } } });
    const returned = { ...minimalCreate(), email: { email: "ann@acme.test", returnCode: {} } };
    expect(await createHumanUser(ports, returned, context)).toEqual(err(configurationError("config.codes.email.alphabet must be a string of 2 to 256 distinct characters")));
    expect(ports.storage.events()).toEqual([]);
  });

  it("answer 9 naming an alphabet over 256 characters (drawing from it never ended)", async () => {
    const ports = testPorts({ config: { codes: { init: { alphabet: Array.from({ length: 300 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join("") } } } });
    expect(await importHumanUser(ports, importRequest, { ...context, orgId: "acme" })).toEqual(
      err(configurationError("config.codes.init.alphabet must be a string of 2 to 256 distinct characters")),
    );
  });

  it("answer 9 naming a missing port, from every operation", async () => {
    const { mailer: _mailer, ...ports } = testPorts();
    const missing = ports as unknown as Ports;
    const expected = configurationError("ports.mailer is missing: memoryMailer() in tests, smtpMailer(...) from human-users/smtp, or an object with send(message)");
    expect(await createHumanUser(missing, minimalCreate(), context)).toEqual(err(expected));
    expect(await importHumanUser(missing, importRequest, context)).toEqual(err(expected));
    expect(await collect(importHumanUsers(missing, [importRequest], context))).toEqual([{ index: 0, error: expected }]);
  });

  it("answer 9 naming every missing required port when given no ports at all", async () => {
    const none = {} as Ports;
    expect(await createHumanUser(none, minimalCreate(), context)).toEqual(err(configurationError("ports.storage is missing: memoryStore() in tests, postgresStore(pool) from human-users/postgres or pgliteStore(db) from human-users/pglite; ports.mailer is missing: memoryMailer() in tests, smtpMailer(...) from human-users/smtp, or an object with send(message); ports.clock is missing: systemClock (fixedClock(time) in tests)")));
  });

  it("check the configuration once per ports object", async () => {
    let reads = 0;
    const base = testPorts();
    const config: HumanUsersConfig = { immediateDelivery: "off" };
    const ports = Object.defineProperty({ ...base }, "config", { get: () => ((reads += 1), config), enumerable: true }) as Ports;
    const create = async (email: string) => (await createHumanUser(ports, { ...minimalCreate(), email: { email } }, context)).isOk();
    const first = await create("a@acme.test");
    const afterFirst = reads;
    const others = [await create("b@acme.test"), await create("c@acme.test")];
    // Read when the ports were first resolved (checked, then given their defaults), never again.
    expect({ first, others, afterFirstIsSome: afterFirst > 0, readsSince: reads - afterFirst }).toEqual({ first: true, others: [true, true], afterFirstIsSome: true, readsSince: 0 });
  });
});

describe("a requester passed as the context itself", () => {
  it("answers 9 saying how to pass it, where it answered 16 as if nobody had signed in; writes nothing", async () => {
    const ports = testPorts();
    const refusal = configurationError("the context holds a requester's userId: pass the requester as { requester: { userId, orgId } }");
    const requesterAsContext = member as unknown as OperationContext;
    expect(await createHumanUser(ports, minimalCreate(), requesterAsContext)).toEqual(err(refusal));
    expect(await importHumanUser(ports, importRequest, requesterAsContext)).toEqual(err(refusal));
    expect(await getUser(ports, { userId: "anyone" }, requesterAsContext)).toEqual(err(refusal));
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
    // With a requester beside it, a userId in the context is the host's own business.
    expect((await createHumanUser(ports, minimalCreate(), { ...context, userId: "host-data" } as OperationContext)).isOk()).toBe(true);
    // No requester and no such member: still 16.
    expect((await createHumanUser(ports, minimalCreate(), { orgId: "acme" })).mapErr((error) => error.code)).toEqual(err(16));
    // A function that needs no requester (a code or a password is its proof) is not refused for it.
    expect((await checkPassword(ports, { loginName: "nobody", password: "Wrong-Password-1" }, requesterAsContext)).mapErr((error) => error.code)).toEqual(err(3));
  });
});

describe("a context origin that cannot start links", () => {
  const refusal = configurationError("context.origin must be an absolute http or https URL without query or fragment");
  const origins: unknown[] = ["javascript:alert(1)", "not a url", "", "ftp://x.example", "https://x.example/?q=1", "https://x.example/#f", "https://x.example?", "https://", 8080, "https://x.example/\ud800", "https://x\udfff.example"];
  const passwordless = { ...importRequest, email: { email: "ann@acme.test", isEmailVerified: true }, password: "Secr3t!pw", requestPasswordlessRegistration: true };
  const withOrigin = (origin: unknown): OperationContext => ({ ...context, origin: origin as string });

  it.each(origins)("%j: createHumanUser and importHumanUser answer 9 as for config.origin, and write and send nothing", async (origin) => {
    const ports = testPorts();
    expect(await createHumanUser(ports, minimalCreate(), withOrigin(origin))).toEqual(err(refusal));
    expect(await importHumanUser(ports, passwordless, withOrigin(origin))).toEqual(err(refusal));
    expect(await collect(importHumanUsers(ports, [passwordless], withOrigin(origin)))).toEqual([{ index: 0, error: refusal }]);
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
    expect(ports.mailer.attempted).toEqual([]);
  });

  it("is refused by every function, before the request is looked at, as a bad config.origin is", async () => {
    const ports = testPorts();
    const bad = { origin: "javascript:alert(1)" };
    expect(await createHumanUser(ports, "not an object", bad)).toEqual(err(refusal));
    expect(await passwordReset(ports, { userId: "nobody" }, bad)).toEqual(err(refusal));
    expect(await getUser(ports, { userId: "nobody" }, withOrigin(bad.origin))).toEqual(err(refusal));
    expect(await listUsers(ports, {}, withOrigin(bad.origin))).toEqual(err(refusal));
  });

  it.each(["https://id.test/a{b", "https://id.test/{{x}}", "https://id.test/{{.Code}}", "https://id.test/}"])(
    "%j: answers 9 for a brace, which the default links would read as a placeholder, and writes and sends nothing",
    async (origin) => {
      const ports = testPorts();
      const refusal = configurationError('context.origin must not hold "{" or "}"');
      expect(await createHumanUser(ports, minimalCreate(), withOrigin(origin))).toEqual(err(refusal));
      expect(await importHumanUser(ports, passwordless, withOrigin(origin))).toEqual(err(refusal));
      expect(await createHumanUser(testPorts({ config: { origin } }), minimalCreate(), context)).toEqual(err(configurationError('config.origin must not hold "{" or "}"')));
      expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
      expect(ports.mailer.attempted).toEqual([]);
    },
  );

  it("takes an origin with a path, a port or a trailing slash, as config.origin", async () => {
    for (const origin of ["https://id.acme.test/", "https://id.acme.test/base", "http://[::1]:8080"]) {
      expect((await createHumanUser(testPorts(), minimalCreate(), withOrigin(origin))).isOk()).toBe(true);
    }
  });
});

describe("a durable store", () => {
  const refusal = configurationError(
    "ports.keys is missing: the store is durable (storage.durable), so codes must still check after a restart; give keys (keysFromEnvironment) or set config.allowThrowawayKeys: true",
  );

  function durablePorts(overrides: Partial<Ports> = {}): Ports {
    const { keys: _keys, ...ports } = testPorts(overrides);
    return { ...ports, storage: { ...ports.storage, durable: true } };
  }

  it("without keys is refused by every operation, and nothing is written", async () => {
    const ports = durablePorts();
    expect(await createHumanUser(ports, minimalCreate(), context)).toEqual(err(refusal));
    expect(await importHumanUser(ports, importRequest, context)).toEqual(err(refusal));
    expect(await collect(importHumanUsers(ports, [importRequest], context))).toEqual([{ index: 0, error: refusal }]);
  });

  it("works with keys, or with the host's explicit opt-in to throwaway keys", async () => {
    const withKeys = { ...durablePorts(), keys: testPorts().keys } as Ports;
    expect((await createHumanUser(withKeys, minimalCreate(), context)).isOk()).toBe(true);
    const optedIn = durablePorts({ config: { allowThrowawayKeys: true } });
    expect((await createHumanUser(optedIn, minimalCreate(), context)).isOk()).toBe(true);
  });
});

describe("a random source that gives no usable bytes", () => {
  it("answers 13 and logs why, instead of drawing forever", async () => {
    const logged: { message: string; cause: unknown }[] = [];
    const logger = { warn: () => undefined, error: (fields: Readonly<Record<string, unknown>>, message: string) => void logged.push({ message, cause: fields["err"] }) };
    const ports = testPorts({ random: { fill: (bytes) => bytes.fill(0xff) }, logger });
    expect(await createHumanUser(ports, minimalCreate(), context)).toEqual(err(plainError(13, "USER-1nt3", "internal error")));
    expect(logged).toEqual([{ message: "human-users: createHumanUser failed", cause: new Error("the random source gave no usable bytes") }]);
    expect(ports.storage.events()).toEqual([]);
  });
});

describe("links without an origin", () => {
  const WARNING = "human-users: links in mails and responses start with http://localhost:8080; set config.origin (or context.origin, or --origin for human-users import) to your public URL (warned once)";

  /** Test ports on a store that says it is durable, with a logger that records. */
  function durablePorts(config?: HumanUsersConfig) {
    const ports = testPorts(config === undefined ? {} : { config });
    const entries: { level: string; message: string }[] = [];
    const logger = { warn: (_fields: unknown, message: string) => void entries.push({ level: "warn", message }), error: (_fields: unknown, message: string) => void entries.push({ level: "error", message }) };
    const storage = Object.assign(Object.create(ports.storage) as typeof ports.storage, { durable: true });
    return { ports: { ...ports, storage, logger }, entries };
  }

  it("warn the host once on a durable store, where mails would point users at localhost", async () => {
    const { ports, entries } = durablePorts();
    const sent = { ...minimalCreate(), username: "ann" };
    expect((await createHumanUser(ports, sent, context)).isOk()).toBe(true);
    expect((await createHumanUser(ports, { ...sent, username: "bob", email: { email: "bob@acme.test" } }, context)).isOk()).toBe(true);
    expect(entries).toEqual([{ level: "warn", message: WARNING }]);
  });

  it("warn nobody when the configuration or the call gives one, or on a store that forgets (tests, demos)", async () => {
    const configured = durablePorts({ origin: "https://id.acme.test" });
    expect((await createHumanUser(configured.ports, minimalCreate(), context)).isOk()).toBe(true);
    const perCall = durablePorts();
    expect((await createHumanUser(perCall.ports, minimalCreate(), { ...context, origin: "https://id.acme.test" })).isOk()).toBe(true);
    const logger = { warn: () => expect.unreachable("no warning"), error: () => expect.unreachable("no error") };
    expect((await createHumanUser({ ...testPorts(), logger }, minimalCreate(), context)).isOk()).toBe(true);
    expect([configured.entries, perCall.entries]).toEqual([[], []]);
  });

  it("warn nobody when no link starts with it: a code returned, a verified address, a configured template", async () => {
    const { ports, entries } = durablePorts({ emailVerificationUrlTemplate: "https://id.acme.test/verify?user={{.UserID}}&code={{.Code}}" });
    const creations = [
      { ...minimalCreate(), username: "ann", email: { email: "ann@acme.test", returnCode: {} } },
      { ...minimalCreate(), username: "bob", email: { email: "bob@acme.test", isVerified: true } },
      { ...minimalCreate(), username: "cid", email: { email: "cid@acme.test" } },
    ];
    for (const sent of creations) expect((await createHumanUser(ports, sent, context)).isOk()).toBe(true);
    expect(entries).toEqual([]);
    // The first link that does start with it still warns.
    expect((await passwordReset(ports, { userId: FIRST_ID, sendLink: {} }, context)).isOk()).toBe(true);
    expect(entries).toEqual([{ level: "warn", message: WARNING }]);
  });
});
