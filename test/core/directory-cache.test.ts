// The directory cache: answers used again for a bounded time, never longer, and off on request.
import { describe, expect, it } from "vitest";
import { cachedDirectory } from "../../src/core/directory-cache.js";
import { createHumanUser, type Directory, type Organization } from "../../src/index.js";
import { member, minimalCreate, testPorts } from "../operations/support/ports.js";

/** A directory the test changes, counting its lookups. */
function changingDirectory(organizations: Map<string, Organization>) {
  const calls = { byId: 0, byDomain: 0 };
  const directory: Directory = {
    findOrganization: (id) => ((calls.byId += 1), Promise.resolve(organizations.get(id))),
    findOrganizationByDomain: (domain) => {
      calls.byDomain += 1;
      return Promise.resolve([...organizations.values()].find((org) => org.domains.some((entry) => entry.verified && entry.domain === domain)));
    },
    findIdentityProvider: () => Promise.resolve(undefined),
  };
  return { directory, calls };
}

const ACME: Organization = { id: "acme", domains: [{ domain: "acme.test", verified: true }] };

describe("cachedDirectory", () => {
  it("answers from the cache within the lifetime, and asks again once it is over", async () => {
    const organizations = new Map([["acme", ACME]]);
    const { directory, calls } = changingDirectory(organizations);
    let now = 0;
    const cached = cachedDirectory(directory, 5_000, () => now);
    expect(await cached.findOrganization("acme")).toEqual(ACME);
    organizations.delete("acme");
    now = 4_999;
    expect(await cached.findOrganization("acme")).toEqual(ACME);
    expect(calls.byId).toBe(1);
    now = 5_000;
    expect(await cached.findOrganization("acme")).toBeUndefined();
    expect(calls.byId).toBe(2);
  });

  it("sees an unverified domain once the lifetime is over, whatever the spelling asked", async () => {
    const organizations = new Map([["acme", ACME]]);
    const { directory, calls } = changingDirectory(organizations);
    let now = 0;
    const cached = cachedDirectory(directory, 1_000, () => now);
    expect(await cached.findOrganizationByDomain("ACME.test")).toEqual(ACME);
    expect(await cached.findOrganizationByDomain("acme.TEST")).toEqual(ACME);
    expect(calls.byDomain).toBe(1);
    organizations.set("acme", { id: "acme", domains: [{ domain: "acme.test", verified: false }] });
    now = 1_000;
    expect(await cached.findOrganizationByDomain("acme.test")).toBeUndefined();
  });

  it("asks the store with letters outside ASCII as given: stores lower them differently (İ is i in PostgreSQL, i̇ in JavaScript)", async () => {
    const asked: string[] = [];
    const directory: Directory = {
      findOrganization: () => Promise.resolve(undefined),
      findOrganizationByDomain: (domain) => (asked.push(domain), Promise.resolve(undefined)),
      findIdentityProvider: () => Promise.resolve(undefined),
    };
    const cached = cachedDirectory(directory, 60_000, () => 0);
    await cached.findOrganizationByDomain("İZMİR.Test");
    await cached.findOrganizationByDomain("İzmİr.TEST");
    await cached.findOrganizationByDomain("ÉCOLE.test");
    expect(asked).toEqual(["İzmİr.test", "École.test"]);
  });

  it("does not remember a failed lookup", async () => {
    let fail = true;
    const directory: Directory = {
      findOrganization: () => (fail ? Promise.reject(new Error("down")) : Promise.resolve(ACME)),
      findOrganizationByDomain: () => Promise.resolve(undefined),
      findIdentityProvider: () => Promise.resolve(undefined),
    };
    const cached = cachedDirectory(directory, 60_000, () => 0);
    await expect(cached.findOrganization("acme")).rejects.toThrow("down");
    fail = false;
    expect(await cached.findOrganization("acme")).toEqual(ACME);
  });

  it("is off at 0: every lookup asks the directory", async () => {
    const { directory, calls } = changingDirectory(new Map([["acme", ACME]]));
    const cached = cachedDirectory(directory, 0, () => 0);
    await cached.findOrganization("acme");
    await cached.findOrganization("acme");
    expect(calls.byId).toBe(2);
  });
});

describe("the operations and a stale directory", () => {
  it("refuse a user in an organization deleted longer ago than the cache lifetime", async () => {
    const organizations = new Map([["acme", ACME]]);
    const { directory } = changingDirectory(organizations);
    const ports = testPorts({ directory, config: { directoryCacheSeconds: 0.05 } });
    const request = (n: number) => ({ ...minimalCreate(), email: { email: `u${n}@acme.test`, returnCode: {} } });
    expect((await createHumanUser(ports, request(1), { requester: member })).isOk()).toBe(true);
    organizations.delete("acme");
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await createHumanUser(ports, request(2), { requester: member }))._unsafeUnwrapErr().code).toBe(7);
  });

  it("see a change at once with the cache off", async () => {
    const organizations = new Map([["acme", ACME]]);
    const { directory } = changingDirectory(organizations);
    const ports = testPorts({ directory, config: { directoryCacheSeconds: 0 } });
    expect((await createHumanUser(ports, { ...minimalCreate(), email: { email: "a@acme.test", returnCode: {} } }, { requester: member })).isOk()).toBe(true);
    organizations.delete("acme");
    expect((await createHumanUser(ports, { ...minimalCreate(), email: { email: "b@acme.test", returnCode: {} } }, { requester: member }))._unsafeUnwrapErr().code).toBe(7);
  });
});
