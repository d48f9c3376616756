import { describe, expect, it } from "vitest";
import { decodeLenientBase64, encodeBase64, encodeBase64Url } from "../../src/shared/base64.js";

describe("base64", () => {
  it("encodes as the standard alphabet with padding, for every length remainder (RFC 4648 vectors)", () => {
    const vectors: [string, string][] = [["", ""], ["f", "Zg=="], ["fo", "Zm8="], ["foo", "Zm9v"], ["foob", "Zm9vYg=="], ["fooba", "Zm9vYmE="], ["foobar", "Zm9vYmFy"]];
    for (const [plain, encoded] of vectors) expect(encodeBase64(new TextEncoder().encode(plain))).toBe(encoded);
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(encodeBase64(all)).toBe(Buffer.from(all).toString("base64"));
  });

  it("encodes any length as Node's Buffer does, across the chunks it converts at a time, padded or not", () => {
    for (const length of [1, 2, 31, 32, 33, 8191, 8192, 8193, 8194, 20_000]) {
      const bytes = Uint8Array.from({ length }, (_, index) => (index * 167 + length) & 0xff);
      const expected = Buffer.from(bytes).toString("base64");
      expect(encodeBase64(bytes)).toBe(expected);
      expect(encodeBase64(bytes, false)).toBe(expected.replace(/=+$/, ""));
      expect(encodeBase64Url(bytes)).toBe(Buffer.from(bytes).toString("base64url"));
    }
  });

  it("decodes standard and URL-safe base64 with or without padding, and refuses the rest", () => {
    expect(decodeLenientBase64("+/8=")).toEqual(Uint8Array.of(0xfb, 0xff));
    expect(decodeLenientBase64("-_8")).toEqual(Uint8Array.of(0xfb, 0xff));
    expect(decodeLenientBase64("")).toEqual(new Uint8Array(0));
    for (const bad of ["a", "abc=d", "+_8=", "ab=", "a b", "Zg==="]) expect(decodeLenientBase64(bad)).toBeUndefined();
  });
});
