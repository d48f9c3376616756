import { describe, expect, it } from "vitest";
import { err, ok } from "neverthrow";
import { camelCaseKeys, MAX_DEPTH } from "../../src/core/wire/camel-case-keys.js";
import { pruneEmpty } from "../../src/core/wire/prune.js";
import { durationSeconds, rfc3339 } from "../../src/core/wire/timestamp.js";

describe("wire helpers", () => {
  it("renames snake_case keys at every depth, the camelCase spelling winning a tie", () => {
    expect(camelCaseKeys({ given_name: "a", email: { is_verified: true }, list: [{ user_id: "1" }], userId: "x", user_id: "y" })).toEqual(
      ok({
        givenName: "a",
        email: { isVerified: true },
        list: [{ userId: "1" }],
        userId: "x",
      }),
    );
  });

  it("copies a __proto__ key as data, into objects without a prototype", () => {
    const copy = camelCaseKeys(JSON.parse('{"__proto__": {"polluted": true}}'))._unsafeUnwrap() as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(null);
    expect(Object.keys(copy)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("refuses a value nested deeper than MAX_DEPTH, at any depth below it copies", () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_DEPTH; i++) deep = [deep];
    expect(camelCaseKeys(deep).isOk()).toBe(true);
    expect(camelCaseKeys([deep])).toEqual(err("too deep"));
  });

  it("leaves out absent members, empty strings, false and empty lists, at every depth", () => {
    expect(pruneEmpty<Record<string, unknown>>({ a: undefined, b: "", c: false, d: [], e: 0, f: "x", g: { h: "", i: true } })).toEqual({ e: 0, f: "x", g: { i: true } });
  });

  it("writes timestamps as protobuf JSON does, and durations in seconds", () => {
    expect(rfc3339(new Date("2026-01-02T03:04:05Z"))).toBe("2026-01-02T03:04:05Z");
    expect(rfc3339(new Date("2026-01-02T03:04:05.120Z"))).toBe("2026-01-02T03:04:05.120Z");
    expect(durationSeconds(3600)).toBe("3600s");
  });
});
