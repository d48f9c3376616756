// `COPY ... FROM STDIN` on a `pg` connection, through pg-copy-streams where the host has installed
// it (an optional peer dependency, looked up once, on first use). Without it the store writes the
// same rows with statements: COPY only makes bulk imports cheaper for the database.
import type { PgClientLike } from "./pg-like.js";

/** pg-copy-streams' stream for one COPY, as far as it is used here. */
interface CopyStream {
  end(rows: string): unknown;
  once(event: "finish", listener: () => void): unknown;
  once(event: "error", listener: (error: Error) => void): unknown;
}

/** A `pg` client also takes a stream as its query (pg's Submittable form) and answers the stream. */
interface StreamQueryable {
  query(stream: CopyStream): unknown;
}

/** Sends `rows` (COPY's text format) through `statement` on `client`; settles once the database has them. */
export type CopyFromStdin = (client: PgClientLike, statement: string, rows: string) => Promise<void>;

function copyWith(from: (statement: string) => CopyStream): CopyFromStdin {
  return (client, statement, rows) =>
    new Promise<void>((resolve, reject) => {
      const stream = from(statement);
      stream.once("finish", resolve);
      stream.once("error", reject);
      (client as unknown as StreamQueryable).query(stream);
      stream.end(rows);
    });
}

let found: Promise<CopyFromStdin | undefined> | undefined;

/** COPY through pg-copy-streams, or undefined when it is not installed. */
export function copyFromStdin(): Promise<CopyFromStdin | undefined> {
  found ??= import("pg-copy-streams").then(
    (module) => {
      const from: unknown = module.from ?? (module as { default?: { from?: unknown } }).default?.from;
      return typeof from === "function" ? copyWith(from as (statement: string) => CopyStream) : undefined;
    },
    () => undefined,
  );
  return found;
}
