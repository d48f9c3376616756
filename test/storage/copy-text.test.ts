// COPY's text format and the order a batch's claims are copied in (see new-users-copy.ts).
import { describe, expect, it } from "vitest";
import { copyRow, copyRows, copyValue } from "../../src/adapters/postgres/copy-text.js";
import { compareCodePoints } from "../../src/adapters/postgres/new-users-copy.js";

describe("COPY's text format", () => {
  it("escapes the four characters that end or escape a value, writes null as \\N and booleans as t and f", () => {
    expect(copyValue("plain text, 世界 😀")).toBe("plain text, 世界 😀");
    expect(copyValue("a\tb\nc\rd\\e")).toBe("a\\tb\\nc\\rd\\\\e");
    expect(copyValue("\\N")).toBe("\\\\N");
    expect(copyValue(null)).toBe("\\N");
    expect(copyValue(undefined)).toBe("\\N");
    expect(copyValue(true)).toBe("t");
    expect(copyValue(false)).toBe("f");
    expect(copyValue(42)).toBe("42");
    expect(copyValue("")).toBe("");
  });

  it("writes a row as its values between tabs, and rows each ending with a newline", () => {
    expect(copyRow(["a", null, true, 7, "x\ty"])).toBe("a\t\\N\tt\t7\tx\\ty");
    expect(copyRows([copyRow(["a", 1]), copyRow(["b\nc", 2])])).toBe("a\t1\nb\\nc\t2\n");
    expect(copyRows([])).toBe("");
  });
});

describe("the claims' order", () => {
  /** The order of COLLATE "C": UTF-8 bytes. */
  const byBytes = (left: string, right: string) => Buffer.compare(Buffer.from(left, "utf8"), Buffer.from(right, "utf8"));
  const sign = (value: number) => Math.sign(value);

  it("is UTF-8 byte order, where UTF-16 order puts an astral character below U+E000–U+FFFF", () => {
    const texts = ["", "a", "ab", "b", "\u007f", "é", "\ud7ff", "\ue000", "\uffff", "😀", "𝒜", "a😀", "a\uffff", "\u0000", "z"];
    for (const left of texts) for (const right of texts) expect([left, right, sign(compareCodePoints(left, right))]).toEqual([left, right, sign(byBytes(left, right))]);
    // The case that tells the two orders apart.
    expect("😀" < "\uffff").toBe(true);
    expect(compareCodePoints("😀", "\uffff")).toBeGreaterThan(0);
  });
});
