// Databases for the storage tests: the real PostgreSQL server when one answers (HUMAN_USERS_PG_URL,
// else 127.0.0.1:5432), each store in a fresh schema so runs and test files never collide; PGlite
// otherwise, one instance per test file (starting one takes seconds), a fresh schema per store.
import { PGlite } from "@electric-sql/pglite";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrate, postgresStore } from "../../src/adapters/postgres/index.js";
import type { SqlStore, SqlStoreOptions } from "../../src/adapters/postgres/index.js";
import { migratePglite, pgliteStore } from "../../src/adapters/pglite/index.js";
import type { StorageSeed, StorageUnderTest } from "../../src/testing/index.js";

const LOCAL_URL = "postgres://postgres@127.0.0.1:5432/test";

/**
 * The server to test against, or undefined when none answers within a second.
 * `HUMAN_USERS_PG_URL=off` skips the server even when one runs (to try the PGlite fallback).
 */
export async function findPostgres(): Promise<string | undefined> {
  if (process.env.HUMAN_USERS_PG_URL === "off") return undefined;
  const url = process.env.HUMAN_USERS_PG_URL ?? LOCAL_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
    return url;
  } catch (error) {
    if (process.env.HUMAN_USERS_PG_URL !== undefined) throw new Error(`HUMAN_USERS_PG_URL is set but does not answer: ${String(error)}`);
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function freshSchemaName(label: string): string {
  return `hu_${label}_${randomBytes(5).toString("hex")}`;
}

export async function seedStore(store: SqlStore, seed: StorageSeed): Promise<void> {
  for (const organization of seed.organizations) await store.upsertOrganization(organization);
  for (const provider of seed.identityProviders) await store.upsertIdentityProvider(provider);
}

export interface SchemaPool {
  readonly pool: pg.Pool;
  readonly schema: string;
  /** Ends the pool and drops the schema. */
  drop(): Promise<void>;
}

/** A pool whose connections all live in a new, empty schema. */
export async function schemaPool(url: string, label: string, max = 10): Promise<SchemaPool> {
  const schema = freshSchemaName(label);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const pool = new pg.Pool({ connectionString: url, max, options: `-c search_path=${schema}` });
  // An idle connection that dies (e.g. terminated by a test) must not crash the test process.
  pool.on("error", () => undefined);
  return {
    pool,
    schema,
    async drop() {
      await pool.end();
      const cleaner = new pg.Client({ connectionString: url });
      await cleaner.connect();
      await cleaner.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleaner.end();
    },
  };
}

/** A migrated, seeded PostgreSQL store in a fresh schema; `options` as `postgresStore` takes them. */
export async function postgresSubject(
  url: string,
  label: string,
  seed: StorageSeed,
  options: SqlStoreOptions = {},
): Promise<StorageUnderTest & { readonly store: SqlStore; readonly schema: SchemaPool }> {
  const schema = await schemaPool(url, label);
  await migrate(schema.pool);
  const store = postgresStore({ ...options, pool: schema.pool });
  await seedStore(store, seed);
  return { storage: store, store, schema, snapshot: () => store.snapshot(), close: () => schema.drop() };
}

/** One PGlite instance for a test file; each subject gets a schema of its own in it. */
export class PgliteSchemas {
  private readonly db: PGlite;

  constructor(dataDir?: string) {
    this.db = dataDir === undefined ? new PGlite() : new PGlite(dataDir);
  }

  get instance(): PGlite {
    return this.db;
  }

  async subject(label: string, seed: StorageSeed): Promise<StorageUnderTest & { readonly store: SqlStore }> {
    const schema = freshSchemaName(label);
    // PGlite has a single session: the search_path set here holds until the next subject's.
    await this.db.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
    await migratePglite(this.db);
    const store = pgliteStore({ db: this.db });
    await seedStore(store, seed);
    return {
      storage: store,
      store,
      snapshot: () => store.snapshot(),
      close: async () => {
        await this.db.exec(`DROP SCHEMA ${schema} CASCADE`);
      },
    };
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
