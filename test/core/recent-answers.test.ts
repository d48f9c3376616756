import { describe, expect, it } from "vitest";
import { recentAnswers } from "../../src/shared/recent-answers.js";
import { isoTime, isoTimeAfter, rfc3339 } from "../../src/core/wire/timestamp.js";

describe("recentAnswers", () => {
  it("computes each argument once while it is among the recent ones, undefined answers too", () => {
    const asked: string[] = [];
    const lookup = recentAnswers((name: string) => {
      asked.push(name);
      return name === "none" ? undefined : name.length;
    }, 3);
    expect([lookup("a"), lookup("bb"), lookup("a"), lookup("none"), lookup("none"), lookup("bb")]).toEqual([1, 2, 1, undefined, undefined, 2]);
    expect(asked).toEqual(["a", "bb", "none"]);
  });

  it("starts over once it holds `size` answers, so its memory stays bounded", () => {
    const asked: number[] = [];
    const double = recentAnswers((value: number) => {
      asked.push(value);
      return value * 2;
    }, 2);
    expect([double(1), double(2), double(3), double(1), double(3)]).toEqual([2, 4, 6, 2, 6]);
    // 3 did not fit beside 1 and 2: the memory started over with 3, then 1 was computed again.
    expect(asked).toEqual([1, 2, 3, 1]);
  });

  it("remembers no throw: the next call throws again", () => {
    let calls = 0;
    const parse = recentAnswers((text: string) => {
      calls += 1;
      if (text === "bad") throw new RangeError("bad");
      return text;
    }, 4);
    expect(() => parse("bad")).toThrow(RangeError);
    expect(() => parse("bad")).toThrow(RangeError);
    expect(calls).toBe(2);
  });
});

describe("the kept instants answer as computing them afresh would", () => {
  it.each(["2026-01-01T00:00:00Z", "2026-01-01T00:00:00.120Z", "2026-01-01T01:00:00+01:00", "2026-06-30T23:59:59.999Z"])("%s", (time) => {
    for (let round = 0; round < 3; round++) {
      expect(isoTime(time)).toBe(new Date(time).toISOString());
      expect(isoTimeAfter(time, 3600)).toBe(new Date(Date.parse(time) + 3_600_000).toISOString());
      expect(rfc3339(new Date(time))).toBe(new Date(time).toISOString().replace(".000Z", "Z"));
    }
  });

  it("throws a RangeError for no time, every time", () => {
    expect(() => isoTime("not a time")).toThrow(RangeError);
    expect(() => isoTimeAfter("not a time", 60)).toThrow(RangeError);
    expect(() => rfc3339(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => isoTime("not a time")).toThrow(RangeError);
  });
});
