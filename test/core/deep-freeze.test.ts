import { describe, expect, it } from "vitest";
import { deepFreeze, isFrozenWhole } from "../../src/shared/deep-freeze.js";

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

  it("counts as frozen whole only what it froze, not a value frozen another way", () => {
    const frozenElsewhere = Object.freeze({ a: 1 });
    const whole = deepFreeze({ inner: { b: 2 } });
    expect([isFrozenWhole(whole), isFrozenWhole(frozenElsewhere), isFrozenWhole({ a: 1 })]).toEqual([true, false, false]);
  });
});
