import { describe, expect, it } from "vitest";
import { repeatedMember } from "../../src/shared/repeated-member.js";

describe("repeatedMember", () => {
  it("finds a member given twice, at any depth, by its path", () => {
    const cases: [string, string | undefined][] = [
      ['{"userName":"a","userName":"b"}', "userName"],
      ['{"profile":{"givenName":"A","familyName":"B","givenName":"C"}}', "profile.givenName"],
      ['{"idps":[{"idpId":"i"},{"idpId":"j","userId":"u","idpId":"k"}]}', "idps[1].idpId"],
      ['[{"a":1},{"b":[1,{"c":2,"c":3}]}]', "[1].b[1].c"],
      // One name however it is escaped.
      ['{"a":1,"\\u0061":2}', "a"],
      ['{"a\\"b":1,"a\\u0022b":2}', 'a"b'],
    ];
    for (const [text, path] of cases) expect(repeatedMember(text, JSON.parse(text))).toBe(path);
  });

  it("finds none where names repeat only in other objects, in values, or in strings that look like JSON", () => {
    const cases = [
      '{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}',
      '{"a":"a","b":"a","c":["a","a"]}',
      '{"a":"{\\"x\\":1,\\"x\\":2}","b":"\\\\","c":"[,:]"}',
      '{"A":1,"a":2}',
      "[]",
      "{}",
      '"x"',
      "12",
      'null',
      ' { "a" : 1 , "b" : [ true , false , null , -1.5e3 ] } ',
    ];
    for (const text of cases) expect(repeatedMember(text, JSON.parse(text))).toBeUndefined();
  });

  it("reads a second text afresh after one it stopped in", () => {
    const first = '{"a":{"b":1,"b":2},"z":[{"c":1}]}';
    expect(repeatedMember(first, JSON.parse(first))).toBe("a.b");
    const second = '{"b":1,"b":{"x":1}}';
    expect(repeatedMember(second, JSON.parse(second))).toBe("b");
  });

  it("counts a __proto__ member as any other, and names it when it repeats", () => {
    const once = '{"__proto__":{"a":1},"b":2}';
    expect(repeatedMember(once, JSON.parse(once))).toBeUndefined();
    const twice = '{"__proto__":1,"__proto__":2}';
    expect(repeatedMember(twice, JSON.parse(twice))).toBe("__proto__");
  });

  it("walks a body nested thousands deep without overflowing the stack, and a long string with many escapes", () => {
    const deep = `{"a":${"[".repeat(20_000)}${"]".repeat(20_000)},"b":1}`;
    expect(repeatedMember(deep, JSON.parse(deep))).toBeUndefined();
    const deepRepeat = `{"a":${"[".repeat(20_000)}{"x":1,"x":2}${"]".repeat(20_000)}}`;
    expect(repeatedMember(deepRepeat, JSON.parse(deepRepeat))).toBe(`a${"[0]".repeat(20_000)}.x`);
    const escapes = `{"a":"${"\\n".repeat(2_000_000)}","a":1}`;
    expect(repeatedMember(escapes, JSON.parse(escapes))).toBe("a");
  });

  it("counts own members only: a name added to Object.prototype does not hide a repeat", () => {
    const text = '{"a":1,"a":2}';
    Object.defineProperty(Object.prototype, "polluted", { value: 1, enumerable: true, configurable: true, writable: true });
    try {
      expect(repeatedMember(text, JSON.parse(text))).toBe("a");
    } finally {
      delete (Object.prototype as Record<string, unknown>)["polluted"];
    }
  });
});
