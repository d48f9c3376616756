import { afterEach, describe, expect, it, vi } from "vitest";
import { databaseNotice, withoutPassword } from "./database-notice.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the line npm test prints about its database", () => {
  it("never shows a password", () => {
    expect([
      withoutPassword("postgres://app:s3cret@db.example.com:5432/users"),
      withoutPassword("postgres://postgres@127.0.0.1:5432/test"),
      withoutPassword("not a url"),
    ]).toEqual(["postgres://app@db.example.com:5432/users", "postgres://postgres@127.0.0.1:5432/test", "(an address that is not a URL)"]);
  });

  it("names PGlite when PostgreSQL is switched off", async () => {
    vi.stubEnv("HUMAN_USERS_PG_URL", "off");
    expect(await databaseNotice()).toBe("Storage tests: PGlite (HUMAN_USERS_PG_URL=off)");
  });

  it("names a PostgreSQL that does not answer, without its password", async () => {
    vi.stubEnv("HUMAN_USERS_PG_URL", "postgres://app:s3cret@127.0.0.1:1/none");
    expect(await databaseNotice()).toBe("Storage tests: PostgreSQL at postgres://app@127.0.0.1:1/none, which does not answer: its tests will fail");
  });
});
