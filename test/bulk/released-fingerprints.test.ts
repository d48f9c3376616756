// Users imported by 0.2.0 carry fingerprints of its rule (v1, the email as given): a re-run of
// that import after an upgrade still finds its rows already there, and other people still conflict.
import { describe, expect, it, vi } from "vitest";
import { importHumanUsers, type BulkImportOutcome } from "../../src/index.js";
import type * as Fingerprints from "../../src/core/users/import-fingerprint.js";
import { adminInAcme, bulkPorts, collect, importedBody, usernameTaken, userRequest } from "./support.js";

/** While set, imports fingerprint users as 0.2.0 did (the v1 rule, pinned in import-fingerprint.test.ts). */
const release = vi.hoisted(() => ({ v020: false }));

vi.mock("../../src/core/users/import-fingerprint.js", async (importOriginal) => {
  const actual = await importOriginal<typeof Fingerprints>();
  const importFingerprint: typeof actual.importFingerprint = (draft, orgId, rule) => actual.importFingerprint(draft, orgId, rule ?? (release.v020 ? "v1" : undefined));
  return { ...actual, importFingerprint };
});

/** `requests` imported into a fresh store by 0.2.0: the store, the users' ids, and the fingerprints it wrote. */
async function importedBy020(requests: readonly unknown[]) {
  const ports = bulkPorts();
  release.v020 = true;
  try {
    const outcomes = await collect(importHumanUsers(ports, requests, adminInAcme));
    const ids = outcomes.flatMap((outcome: BulkImportOutcome) => ("ok" in outcome ? [outcome.ok.userId] : []));
    const fingerprints = ports.storage.events().flatMap((event) => (event.type === "user.human.added" ? [event.payload["importFingerprint"]] : []));
    return { ports, ids, fingerprints };
  } finally {
    release.v020 = false;
  }
}

const ann = userRequest("ann", { email: "ann@acme.test" });
const bob = userRequest("bob", { email: "Bob@acme.test" });

describe("importHumanUsers after an upgrade from 0.2.0", () => {
  it("counts the rows of an import made with 0.2.0 as already there, and writes nothing", async () => {
    const { ports, ids, fingerprints } = await importedBy020([ann, bob]);
    expect(fingerprints).toEqual([expect.stringMatching(/^v1\./), expect.stringMatching(/^v1\./)]);
    const before = ports.storage.snapshot();
    expect(await collect(importHumanUsers(ports, [bob, ann], adminInAcme))).toEqual([
      { index: 0, alreadyThere: { userId: ids[1] } },
      { index: 1, alreadyThere: { userId: ids[0] } },
    ]);
    expect(ports.storage.snapshot()).toEqual(before);
  });

  it("still answers another person with the username of a user 0.2.0 imported as a conflict with that user", async () => {
    const { ports, ids } = await importedBy020([ann]);
    expect(await collect(importHumanUsers(ports, [userRequest("ann", { email: "other@acme.test" }), userRequest("dee")], adminInAcme))).toEqual([
      { index: 0, error: usernameTaken, conflict: { claim: "username", field: "userName", userId: ids[0] } },
      { index: 1, ok: importedBody() },
    ]);
  });

  it("compares rows of the new run with each other by the new rule, the email ignoring case", async () => {
    const { ports, ids } = await importedBy020([ann]);
    const carl = userRequest("carl", { email: "carl@acme.test" });
    expect(await collect(importHumanUsers(ports, [ann, carl, userRequest("carl", { email: "CARL@acme.test" })], adminInAcme))).toEqual([
      { index: 0, alreadyThere: { userId: ids[0] } },
      { index: 1, ok: importedBody() },
      { index: 2, alreadyThere: { earlierIndex: 1 } },
    ]);
  });

  it("recognizes a user 0.2.0 imported only by its email as given: 0.2.0's fingerprint kept its case", async () => {
    const { ports, ids } = await importedBy020([ann]);
    expect(await collect(importHumanUsers(ports, [userRequest("ann", { email: "ANN@acme.test" })], adminInAcme))).toEqual([
      { index: 0, error: usernameTaken, conflict: { claim: "username", field: "userName", userId: ids[0] } },
    ]);
  });
});
