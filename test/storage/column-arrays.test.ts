// Array literals (how several new users' rows travel to PostgreSQL and PGlite) read back as the
// values they were built from, through JSON's quoting and through the element-by-element path.
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { arrayLiteral, type ColumnValue } from "../../src/adapters/postgres/column-arrays.js";
import { findPostgres, PgliteSchemas } from "./databases.js";

const url = await findPostgres();
const pglite = new PgliteSchemas();
afterAll(() => pglite.close());

type Select = (sql: string, params: readonly unknown[]) => Promise<unknown>;

const databases: readonly (readonly [string, () => Promise<{ select: Select; close: () => Promise<void> }>])[] = [
  ["pglite", async () => ({ select: async (sql, params) => (await pglite.instance.query(sql, [...params])).rows[0], close: async () => undefined })],
  ...(url === undefined
    ? []
    : [
        [
          "postgres",
          async () => {
            const client = new pg.Client({ connectionString: url });
            await client.connect();
            return { select: async (sql: string, params: readonly unknown[]) => (await client.query(sql, [...params])).rows[0] as unknown, close: () => client.end() };
          },
        ] as const,
      ]),
];

const texts: readonly (readonly [string, readonly ColumnValue[]])[] = [
  ["plain texts and NULLs", ["ann", null, "", undefined, "Ada Lovelace"]],
  // Quotes and backslashes JSON escapes as a literal does: written by JSON.stringify.
  ["quotes and backslashes, as JSON writes them", ['say "hi"', "x\\", "\\\\", '\\"', '"', "{braces}", "a,b", "NULL", "null", " padded "]],
  // A backslash before a letter looks like another JSON escape: built element by element.
  ["texts a literal gives a meaning", ['say "hi"', "back\\slash\\", "{braces}", "a,b", "NULL", "null", " padded ", "'quoted'"]],
  ["texts JSON escapes another way", ["line\nbreak", "tab\there", "bell\u0007", "\r\n", "ends with a backslash and n \\n"]],
  ["texts beyond ASCII", ["Grüße", "世界", "😀", "\u2028\u2029", "e\u0301"]],
  ["an empty list", []],
];

describe("arrayLiteral", () => {
  it.each([
    ["a lone surrogate", "\ud800 alone", "a text of the write must not contain an unpaired surrogate (U+D800 to U+DFFF)"],
    ["NUL", "nul\u0000", "a text of the write must not contain the NUL character (U+0000)"],
  ])("refuses a text no column can hold: %s", (_what, text, message) => {
    expect(() => arrayLiteral(["fine", text])).toThrow(new TypeError(message));
  });
});

describe.each(databases)("arrayLiteral on %s", (_, open) => {
  it.each(texts)("reads back %s as text[]", async (_what, values) => {
    const db = await open();
    try {
      expect(await db.select("SELECT $1::text[] AS a", [arrayLiteral(values)])).toEqual({ a: values.map((value) => value ?? null) });
    } finally {
      await db.close();
    }
  });

  it("reads back integers, booleans and times in their types", async () => {
    const db = await open();
    try {
      const row = await db.select(
        `SELECT $1::integer[] AS numbers, $2::boolean[] AS flags,
           array(SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM unnest($3::timestamptz[]) AS t) AS times`,
        [arrayLiteral([1, 0, -7, null]), arrayLiteral([true, false, null]), arrayLiteral(["2026-11-26T12:00:00.123Z", "1970-01-01T00:00:00.000Z"])],
      );
      expect(row).toEqual({ numbers: [1, 0, -7, null], flags: [true, false, null], times: ["2026-11-26T12:00:00.123Z", "1970-01-01T00:00:00.000Z"] });
    } finally {
      await db.close();
    }
  });
});
