// The stores the operations after creation are tested on: memory, PGlite (one instance per test
// file, a fresh schema per test) and the PostgreSQL server when one answers, so that each
// function's bodies are checked on every store.
import { afterAll } from "vitest";
import type { IdentityProvider, Organization, Storage } from "../../../src/index.js";
import { memoryStore } from "../../../src/index.js";
import { PgliteSchemas, findPostgres, postgresSubject } from "../../storage/databases.js";

export interface OpenStore {
  readonly storage: Storage;
  close(): Promise<void>;
}

export interface StoreCase {
  readonly name: string;
  open(organizations: readonly Organization[], identityProviders?: readonly IdentityProvider[]): Promise<OpenStore>;
}

const url = await findPostgres();
let pglite: PgliteSchemas | undefined;
afterAll(async () => {
  await pglite?.close();
});

/** The stores of this run: memory and PGlite always, PostgreSQL when a server answers. */
export const storeCases: readonly StoreCase[] = [
  {
    name: "memory",
    open: (organizations, identityProviders = []) => Promise.resolve({ storage: memoryStore({ organizations, identityProviders }), close: () => Promise.resolve() }),
  },
  {
    name: "pglite",
    async open(organizations, identityProviders = []) {
      pglite ??= new PgliteSchemas();
      const subject = await pglite.subject("ops", { organizations, identityProviders });
      return { storage: subject.storage, close: async () => { await subject.close?.(); } };
    },
  },
  ...(url === undefined
    ? []
    : [
        {
          name: "postgres",
          async open(organizations: readonly Organization[], identityProviders: readonly IdentityProvider[] = []) {
            const subject = await postgresSubject(url, "ops", { organizations, identityProviders });
            return { storage: subject.storage, close: async () => { await subject.close?.(); } };
          },
        },
      ]),
];

/** Whether the PostgreSQL server takes part (the reason to give when it does not). */
export const postgresUrl = url;
