import { describe, expect, it } from "vitest";
import { firstRepeatedMember } from "../../src/http/repeated-member.js";

describe("firstRepeatedMember", () => {
  it.each([
    ['{"a":1,"a":2}', "a"],
    ['{"a":{"b":1,"b":2}}', "b"],
    ['[{"x":1},{"y":[{"z":1,"z":2}]}]', "z"],
    ['{"a":{"b":1},"a":3}', "a"],
    ['{ "a" : 1 ,\n "\\u0061" : 2 }', "a"],
    ['{"q\\"x":1,"q\\"x":2}', 'q"x'],
    ['{"":1,"":2}', ""],
    ['{"a":"{\\"a\\":1,","a":2}', "a"],
  ])("finds the repeat in %s", (json, name) => {
    expect(firstRepeatedMember(json)).toBe(name);
  });

  it.each([
    '{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}',
    '{"a":"a","b":["a","a"],"c":"\\"a\\":1,\\"a\\":2"}',
    '[{"a":1},{"a":1}]',
    '{"a":{},"b":[],"c":[[],{}],"d":null}',
    '"just text"',
    "42",
    '{"a\\\\":1,"a":2}',
  ])("finds none in %s", (json) => {
    expect(firstRepeatedMember(json)).toBeUndefined();
  });

  it("agrees with JSON.parse on bodies made by JSON.stringify, which never repeat a member, and finds one put in", () => {
    const random = (depth: number, seed: number): unknown => {
      if (depth === 0 || seed % 5 === 0) return seed % 3 === 0 ? `s"{,:}[${seed}]\\` : seed;
      if (seed % 2 === 0) return Array.from({ length: seed % 4 }, (_, index) => random(depth - 1, seed * 7 + index));
      return Object.fromEntries(Array.from({ length: (seed % 5) + 1 }, (_, index) => [`k${index}${seed % 3 === 0 ? '"\\é' : ""}`, random(depth - 1, seed * 11 + index)]));
    };
    for (let seed = 1; seed < 300; seed++) {
      const json = JSON.stringify(random(4, seed));
      expect(firstRepeatedMember(json)).toBeUndefined();
      const repeated = json.startsWith("{") && json !== "{}" ? `${json.slice(0, -1)},"k0":0}` : undefined;
      if (repeated !== undefined && (JSON.parse(json) as Record<string, unknown>)["k0"] !== undefined) expect(firstRepeatedMember(repeated)).toBe("k0");
    }
  });
});
