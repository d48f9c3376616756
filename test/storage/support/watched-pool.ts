import type { PgClientLike, PgPoolLike, PgQuery } from "../../../src/adapters/postgres/pg-like.js";

export interface PoolWatch {
  /** Called for every statement sent through a connection of the pool, before it is sent. */
  sent(query: PgQuery): void;
  /** Called with each connection as it is checked out, before the store uses it. */
  checkedOut?(client: PgClientLike): Promise<void>;
}

/** `pool` with its connections watched: how the tests and the bench count round trips. */
export function watchedPool(pool: PgPoolLike, watch: PoolWatch): PgPoolLike {
  return {
    async connect() {
      const client = await pool.connect();
      await watch.checkedOut?.(client);
      return {
        query: (query: PgQuery) => {
          watch.sent(query);
          return client.query(query);
        },
        release: (destroy?: boolean | Error) => client.release(destroy),
        ...(client.on === undefined ? {} : { on: (event: "error", listener: (error: Error) => void) => client.on?.(event, listener) }),
        ...(client.removeListener === undefined ? {} : { removeListener: (event: "error", listener: (error: Error) => void) => client.removeListener?.(event, listener) }),
      };
    },
  };
}
