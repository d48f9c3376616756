import { describe, expect, it } from "vitest";
import { errorCode } from "../../src/shared/error-code.js";

describe("errorCode", () => {
  it("reads a string code from an error or any object", () => {
    expect(errorCode(Object.assign(new Error("gone"), { code: "ENOENT" }))).toBe("ENOENT");
    expect(errorCode({ code: "23505" })).toBe("23505");
  });

  it("is undefined for anything thrown without a string code", () => {
    expect([undefined, null, "ENOENT", 42, new Error("plain"), { code: 23505 }, { code: null }].map(errorCode)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
