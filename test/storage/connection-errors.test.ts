// A connection's 'error' event must never go unheard: `pg` raises one with no listener as an
// uncaught exception, which ends the host's process. The server can end a connection in the same
// network read that completes it (pg_terminate_backend, a restart), before the store's first
// statement: the event then fires before `await pool.connect()` has even resumed.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { postgresStore } from "../../src/adapters/postgres/index.js";
import type { PgClientLike, PgPoolLike, PgQuery, PgResult } from "../../src/adapters/postgres/pg-like.js";

/** A pool that, as pg-pool does, announces each new client ('connect') and hands it out; its server ends it at once. */
function terminatingPool(): { readonly pool: PgPoolLike; readonly heard: boolean[] } {
  const heard: boolean[] = [];
  const events = new EventEmitter();
  const pool = {
    on: (event: "connect", listener: (client: PgClientLike) => void) => events.on(event, listener),
    connect(): Promise<PgClientLike> {
      const emitter = new EventEmitter();
      const client: PgClientLike = {
        query: (_query: PgQuery): Promise<PgResult> => Promise.reject(new Error("Connection terminated unexpectedly")),
        release: () => undefined,
        on: (event, listener) => emitter.on(event, listener),
        removeListener: (event, listener) => emitter.removeListener(event, listener),
      };
      events.emit("connect", client);
      const handedOut = Promise.resolve(client);
      // The termination, read with the connection's completion: before the caller's await resumes.
      queueMicrotask(() => heard.push(emitter.listenerCount("error") > 0));
      return handedOut;
    },
  };
  return { pool, heard };
}

describe("a connection the server ends as it hands it out", () => {
  it("has an error listener from the moment the pool announces it, and the call answers 14", async () => {
    const { pool, heard } = terminatingPool();
    const store = postgresStore({ pool });
    const found = store.directory.findOrganization("acme");
    await expect(found).rejects.toMatchObject({ name: "StorageUnavailableError" });
    expect(heard).toEqual([true]);
  });
});
