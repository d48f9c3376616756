import { describe, expect, it } from "vitest";
import { deepFreeze, isDeeplyFrozen } from "../../src/shared/deep-freeze.js";

describe("deepFreeze", () => {
  it("freezes the value and every object and list in it, and gives the value back", () => {
    const value = { a: 1, nested: { list: [1, { deep: "x" }], text: "t" }, none: null };
    expect(deepFreeze(value)).toBe(value);
    expect([value, value.nested, value.nested.list, value.nested.list[1]].map((part) => Object.isFrozen(part))).toEqual([true, true, true, true]);
    expect(() => {
      (value.nested.list[1] as { deep: string }).deep = "changed";
    }).toThrow(TypeError);
    expect(value).toEqual({ a: 1, nested: { list: [1, { deep: "x" }], text: "t" }, none: null });
  });

  it("tells a value frozen all through from one with anything in it still open, however deep", () => {
    expect(isDeeplyFrozen(deepFreeze({ inner: { list: [{ b: 2 }] } }))).toBe(true);
    expect(isDeeplyFrozen({ a: 1 })).toBe(false);
    expect(isDeeplyFrozen(Object.freeze({ inner: { b: 2 } }))).toBe(false);
    expect(isDeeplyFrozen(Object.freeze({ inner: Object.freeze({ list: Object.freeze([{ b: 2 }]) }) }))).toBe(false);
    expect(isDeeplyFrozen(Object.freeze({ inner: Object.freeze({ list: Object.freeze([Object.freeze({ b: 2 })]) }) }))).toBe(true);
  });
});
