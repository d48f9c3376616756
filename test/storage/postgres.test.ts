// The storage contract on the PostgreSQL adapter: against the real server when one answers, else
// the same SQL on PGlite so that `npm test` passes on a machine without PostgreSQL.
import { afterAll, beforeAll } from "vitest";
import { describeStorageContract } from "../../src/testing/index.js";
import { PgliteSchemas, findPostgres, postgresSubject } from "./databases.js";

const url = await findPostgres();

if (url !== undefined) {
  describeStorageContract("postgres (server)", (seed) => postgresSubject(url, "contract", seed));
} else {
  const pglite = new PgliteSchemas();
  beforeAll(() => pglite.instance.waitReady, 120_000);
  afterAll(() => pglite.close());
  describeStorageContract("postgres SQL on PGlite (no server found)", (seed) => pglite.subject("contract", seed));
}
