// Small ports that misbehave in ways TypeScript lets through: each is a 13 with its cause logged
// and nothing written, or a check that refuses it up front (9), never a quiet wrong answer.
import { err } from "neverthrow";
import { describe, expect, it } from "vitest";
import { configurationProblems } from "../../src/core/config-check.js";
import { checkPassword, createHumanUser, deliverPendingNotifications, importHumanUser, type Directory, type HumanUsersConfig, type Ports } from "../../src/index.js";
import { verifyPassword } from "../../src/passwords/index.js";
import { cheapHash, cheapHasher } from "../operations/support/first-login.js";
import { member, minimalCreate, plainError, testPorts } from "../operations/support/ports.js";

const context = { requester: member };
const internal = err(plainError(13, "USER-1nt3", "internal error"));

function recordingLogger() {
  const errors: unknown[] = [];
  return { errors, logger: { warn: () => undefined, error: (fields: Readonly<Record<string, unknown>>) => void errors.push(fields["err"]) } };
}

describe("a random source that does not fill the array it is given", () => {
  it.each([
    ["returns a new array", (bytes: Uint8Array) => crypto.getRandomValues(new Uint8Array(bytes.length))],
    ["returns fewer bytes", () => new Uint8Array(2)],
    ["returns nothing", () => undefined as unknown as Uint8Array],
  ])("%s: 13, logged, nothing written, where every code would have been the same", async (_case, fill) => {
    const { errors, logger } = recordingLogger();
    const ports = testPorts({ random: { fill }, logger });
    const answer = await createHumanUser(ports, { ...minimalCreate(), email: { email: "ann@acme.test", returnCode: {} } }, context);
    expect(answer).toEqual(internal);
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
    expect(String(errors[0])).toContain("ports.random.fill(bytes) must fill the array it is given and return that same array");
  });

  it("a source that fills and returns the same array is used as it is", async () => {
    const ports = testPorts({ random: { fill: (bytes) => crypto.getRandomValues(bytes) } });
    const codes = await Promise.all(["a", "b", "c"].map(async (name) => (await createHumanUser(ports, { ...minimalCreate(), username: name, email: { email: `${name}@acme.test`, returnCode: {} } }, context))._unsafeUnwrap().emailCode));
    expect(new Set(codes).size).toBe(3);
  });
});

/** Rejections nobody handled while `run` ran, and for a few turns after. */
async function unhandledRejectionsDuring(run: () => Promise<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown): void => void seen.push(reason);
  process.on("unhandledRejection", listener);
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    process.off("unhandledRejection", listener);
  }
  return seen;
}

describe("a port that must answer at once answers with a promise that rejects", () => {
  const rejected = (): never => Promise.reject(new Error("the port's own failure")) as never;
  it.each([
    ["ids.next", { ids: { next: rejected } }, "ports.ids.next() answered with a promise"],
    ["clock.now", { clock: { now: rejected } }, "ports.clock.now() answered with a promise"],
    ["random.fill", { random: { fill: rejected } }, "ports.random.fill(bytes) answered with a promise"],
  ] as const)("%s: 13, logged, nothing written, and the promise's rejection handled", async (_port, broken, logged) => {
    const { errors, logger } = recordingLogger();
    const ports = testPorts({ ...broken, logger });
    let answer: unknown;
    const unhandled = await unhandledRejectionsDuring(async () => {
      answer = await createHumanUser(ports, { ...minimalCreate(), email: { email: "ann@acme.test", returnCode: {} } }, context);
    });
    expect({ answer, unhandled, stored: ports.storage.snapshot() }).toEqual({ answer: internal, unhandled: [], stored: { events: [], claims: [], notifications: [] } });
    expect(String(errors[0])).toContain(logged);
  });

  it("a hasher's isCurrent: verifyPassword answers 13 (not needsRehash false), and the rejection is handled", async () => {
    const failures: unknown[] = [];
    const hasher = { ...cheapHasher, isCurrent: rejected };
    let answer: unknown;
    const unhandled = await unhandledRejectionsDuring(async () => {
      answer = await verifyPassword(cheapHash("Right-Password-1"), "Right-Password-1", { hasher, onInternalError: (cause) => void failures.push(String(cause)) });
    });
    expect({ answer, unhandled }).toEqual({ answer: err(plainError(13, "PASSWORD-v3ri", "password verification failed")), unhandled: [] });
    expect(failures).toEqual(["Error: passwordHasher.isCurrent(parsed) answered with a promise; it must answer at once"]);
  });
});

describe("a directory that answers something of another shape", () => {
  const acme = { id: "acme", domains: [{ domain: "acme.test", verified: true }] };
  it.each([
    ["a bare string", "acme"],
    ["an object without domains", { id: "acme" }],
    ["an id that is a number", { id: 7, domains: [] }],
    ["an array", [acme]],
  ])("findOrganization answers %s: 13, logged, nothing written", async (_case, answer) => {
    const { errors, logger } = recordingLogger();
    const base = testPorts();
    const directory: Directory = { ...base.storage.directory, findOrganization: () => Promise.resolve(answer as never) };
    const ports = { ...base, directory, logger };
    expect(await createHumanUser(ports, minimalCreate(), context)).toEqual(internal);
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
    expect(String(errors[0])).toContain("not an organization ({ id, domains }) or undefined");
  });

  it.each([
    ["a lockout limit as text", { lockout: { maxPasswordAttempts: "3" } }, "policy.lockout.maxPasswordAttempts is not a whole number of 0 or more"],
    ["a lockout limit of 2.5", { lockout: { maxPasswordAttempts: 2.5 } }, "policy.lockout.maxPasswordAttempts is not a whole number of 0 or more"],
    ["a lockout limit of -1", { lockout: { maxPasswordAttempts: -1 } }, "policy.lockout.maxPasswordAttempts is not a whole number of 0 or more"],
    ["an endless lockout limit", { lockout: { maxPasswordAttempts: Infinity } }, "policy.lockout.maxPasswordAttempts is not a whole number of 0 or more"],
    ["a minimum length as a word", { passwordComplexity: { minLength: "twelve" } }, "policy.passwordComplexity.minLength is not a whole number of 0 or more"],
    ["a rule as the text false", { passwordComplexity: { hasSymbol: "false" } }, "policy.passwordComplexity.hasSymbol is not true or false"],
    ["userLoginMustBeDomain as text", { userLoginMustBeDomain: "true" }, "policy.userLoginMustBeDomain is not true or false"],
    ["a policy that is a list", [], "policy is not an object"],
  ])("an organization with %s: 13, logged, nothing written (a rule never quietly weakened)", async (_case, policy, problem) => {
    const { errors, logger } = recordingLogger();
    const base = testPorts();
    const directory: Directory = { ...base.storage.directory, findOrganization: () => Promise.resolve({ ...acme, policy } as never) };
    const ports = { ...base, directory, logger };
    expect(await createHumanUser(ports, minimalCreate(), context)).toEqual(internal);
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
    expect(String(errors[0])).toBe(`TypeError: ports directory.findOrganization answered an organization whose ${problem}`);
  });

  it("a policy with every member absent or null, or of its type, is taken", async () => {
    const base = testPorts();
    const policy = { lockout: { maxPasswordAttempts: null }, passwordComplexity: { minLength: 0, hasSymbol: false, hasNumber: null }, userLoginMustBeDomain: false };
    const directory: Directory = { ...base.storage.directory, findOrganization: () => Promise.resolve({ ...acme, policy } as never) };
    expect((await createHumanUser({ ...base, directory }, minimalCreate(), context)).isOk()).toBe(true);
  });

  it("a null password rule is an absent one: the default rule stays, never turned off", async () => {
    const base = testPorts();
    const policy = { passwordComplexity: { minLength: null, hasLowercase: null, hasUppercase: null, hasNumber: null, hasSymbol: null } };
    const directory: Directory = { ...base.storage.directory, findOrganization: () => Promise.resolve({ ...acme, policy } as never) };
    const answer = await createHumanUser({ ...base, directory }, { ...minimalCreate(), password: { password: "a" } }, context);
    expect(answer._unsafeUnwrapErr().details[1]).toEqual({
      "@type": "type.googleapis.com/google.rpc.BadRequest",
      fieldViolations: [
        { field: "password.password", description: "must be at least 8 characters long" },
        { field: "password.password", description: "must contain an upper-case letter" },
        { field: "password.password", description: "must contain a digit" },
        { field: "password.password", description: "must contain a symbol" },
      ],
    });
  });

  it("null is taken as not found, as undefined is", async () => {
    const base = testPorts();
    const directory: Directory = { ...base.storage.directory, findOrganization: () => Promise.resolve(null as never) };
    const answer = await createHumanUser({ ...base, directory }, minimalCreate(), { requester: { userId: "root", orgId: "acme", instanceAdmin: true } });
    expect(answer._unsafeUnwrapErr().code).toBe(5);
  });
});

describe("a password hasher whose isCurrent throws", () => {
  it("checkPassword answers the operations' own 13 and the logger gets the cause", async () => {
    const { errors, logger } = recordingLogger();
    const broken = { ...cheapHasher, isCurrent: () => { throw new Error("isCurrent broke"); } };
    const ports = testPorts({ passwordHasher: broken, logger, config: { immediateDelivery: "off" } });
    const body = { userName: "ann", profile: { firstName: "Ann", lastName: "Lee" }, email: { email: "ann@acme.test", isEmailVerified: true }, hashedPassword: { value: cheapHash("Right-Password-1") } };
    expect((await importHumanUser(ports, body, context)).isOk()).toBe(true);
    expect(await checkPassword(ports, { loginName: "ann", password: "Right-Password-1" })).toEqual(internal);
    expect(errors.map(String)).toEqual(["Error: isCurrent broke"]);
  });
});

describe("the configuration check", () => {
  const withPorts = (extra: Partial<Ports> | Record<string, unknown>) => configurationProblems(testPorts(extra as Partial<Ports>));
  it("checks the telemetry port like the other optional ports", () => {
    expect([withPorts({ telemetry: {} }), withPorts({ telemetry: "otel" }), withPorts({ telemetry: { span: () => undefined, count: 1 } })]).toEqual([
      ["ports.telemetry.span must be a function", "ports.telemetry.count must be a function"],
      ["ports.telemetry must be an object"],
      ["ports.telemetry.count must be a function"],
    ]);
  });

  it("checks the hash bounds: each given one a number, 0 or more", () => {
    expect([withPorts({ hashBounds: { bcryptMaxCost: -1, bcryptMinCost: "x", argon2MaxTime: 3 } }), withPorts({ hashBounds: [] }), withPorts({ hashBounds: { maxPasswordBytes: Number.NaN } }), withPorts({ hashBounds: { bcryptMaxCost: undefined } })]).toEqual([
      ["ports.hashBounds.bcryptMaxCost must be a number, 0 or more", "ports.hashBounds.bcryptMinCost must be a number, 0 or more"],
      ["ports.hashBounds must be an object"],
      ["ports.hashBounds.maxPasswordBytes must be a number, 0 or more"],
      [],
    ]);
  });

  it("refuses delivery times past a year, which no store could write as times", () => {
    const delivery = (settings: Record<string, number>) => configurationProblems(testPorts({ config: { delivery: settings } as HumanUsersConfig }));
    expect([delivery({ initialBackoffSeconds: 1e300, maxBackoffSeconds: 1e301 }), delivery({ leaseSeconds: 1e13 }), delivery({ leaseSeconds: 31_536_000, sendTimeoutSeconds: 60 })]).toEqual([
      [
        "config.delivery.initialBackoffSeconds must be a number of seconds above 0, at most 31536000 (a year)",
        "config.delivery.maxBackoffSeconds must be a number of seconds above 0, at most 31536000 (a year)",
      ],
      ["config.delivery.leaseSeconds must be a number of seconds above 0, at most 31536000 (a year)"],
      [],
    ]);
  });
});

describe("delivery with a random source that fails", () => {
  it("records each failed attempt (no jitter) so that maxAttempts still ends the retries", async () => {
    const ports = testPorts({ config: { immediateDelivery: "off", delivery: { maxAttempts: 2, initialBackoffSeconds: 1 } } });
    expect((await createHumanUser(ports, minimalCreate(), context)).isOk()).toBe(true);
    const failing = { ...ports, mailer: { send: () => Promise.reject(new Error("smtp down")) }, random: { fill: () => { throw new Error("no entropy"); } } };
    const first = await deliverPendingNotifications(failing);
    expect([first.retrying.length, first.errors]).toEqual([1, []]);
    expect(ports.storage.notifications()[0]).toEqual(expect.objectContaining({ state: "pending", attempts: 1 }));
  });
});
