// The parts of `pg` the adapter uses, described structurally: a `pg.Pool` fits, and the package
// needs no runtime import of `pg` (nor its types) for it.
export interface PgResult {
  readonly rows: readonly unknown[];
}

/** `pg`'s QueryConfig: a `name` makes it a prepared statement, parsed and planned once per connection. */
export interface PgQuery {
  readonly text: string;
  readonly values?: unknown[];
  readonly name?: string;
}

/** Anything that runs a `pg` query: a `pg.Client`, or a `pg.PoolClient` the host checked out. */
export interface PgQueryable {
  /** Runs one query (named: prepared once per connection). */
  query(query: PgQuery): Promise<PgResult>;
}

export interface PgClientLike extends PgQueryable {
  /** The server process behind the connection (`pg` sets it at connect): what a cancel names. */
  readonly processID?: number | null;
  /** `pg` destroys the connection instead of reusing it when given an error. */
  release(destroy?: boolean | Error): void;
  on?(event: "error", listener: (error: Error) => void): unknown;
  removeListener?(event: "error", listener: (error: Error) => void): unknown;
}

/** The store only checks connections out (never `pool.query`): only a connection it holds can it destroy after a timeout. */
export interface PgPoolLike {
  /** Checks out a client; the store releases it. */
  connect(): Promise<PgClientLike>;
  /**
   * `pg`'s pool announces each new client here, before handing it out: the store gives it an
   * 'error' listener at once (see pooled-connection.ts `hearConnectionErrors`).
   */
  on?(event: "connect", listener: (client: PgClientLike) => void): unknown;
}
