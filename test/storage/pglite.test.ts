// The storage contract on the PGlite adapter, in a folder, and the folder's durability.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePglite, pgliteStore } from "../../src/adapters/pglite/index.js";
import { migrations } from "../../src/adapters/postgres/index.js";
import { StorageUnavailableError } from "../../src/ports/storage.js";
import { describeStorageContract, newUserAppend } from "../../src/testing/index.js";
import { PgliteSchemas } from "./databases.js";

const folder = mkdtempSync(join(tmpdir(), "human-users-pglite-"));
const pglite = new PgliteSchemas(folder);
beforeAll(() => pglite.instance.waitReady, 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describeStorageContract("pglite", (seed) => pglite.subject("contract", seed));

describe("pglite in a folder", () => {
  it("keeps what was written after the database is closed and opened again", async () => {
    await pglite.instance.exec("SET search_path TO public");
    expect(await migratePglite(pglite.instance)).toEqual({ applied: migrations.map((migration) => migration.version), foldedTogether: [] });
    const write = newUserAppend("durable", { events: 2, notifications: 1 });
    expect(await pgliteStore({ db: pglite.instance }).userLog.append(write)).toEqual({ ok: true });
    await pglite.close();
    // A closed database is storage that cannot be reached: the operations answer 14.
    await expect(pgliteStore({ db: pglite.instance }).userLog.loadEvents("durable")).rejects.toBeInstanceOf(StorageUnavailableError);

    const reopened = new PGlite(folder);
    try {
      expect(await migratePglite(reopened)).toEqual({ applied: [], foldedTogether: [] });
      const store = pgliteStore({ db: reopened });
      expect(await store.userLog.loadEvents("durable")).toEqual(write.events);
      expect(await store.userLog.findHeldClaims(write.claims)).toEqual(write.claims);
    } finally {
      await reopened.close();
    }
  }, 60_000);
});
