// A request body gathered chunk by chunk up to a limit: the same bytes however the sender cut
// them, and refused once past the limit.
import { describe, expect, it } from "vitest";
import { limitedBody } from "../../src/http/read-json-body.js";

const text = new TextEncoder();

function gathered(chunks: readonly string[], limit: number): { readonly taken: boolean[]; readonly bytes: string } {
  const body = limitedBody(limit);
  const taken = chunks.map((chunk) => body.add(text.encode(chunk)));
  return { taken, bytes: new TextDecoder().decode(body.bytes()) };
}

describe("limitedBody", () => {
  it("gives back one chunk as it came, and nothing as an empty body", () => {
    const chunk = text.encode('{"a":1}');
    const body = limitedBody(100);
    expect(body.add(chunk)).toBe(true);
    expect(body.bytes()).toBe(chunk);
    expect(limitedBody(100).bytes()).toEqual(new Uint8Array());
  });

  it("joins chunks in order, empty ones included, across the buffer's growth", () => {
    const chunks = ["", "ab", "", "c", "x".repeat(20_000), "d", "y".repeat(40_000), "e"];
    expect(gathered(chunks, 100_000)).toEqual({ taken: chunks.map(() => true), bytes: chunks.join("") });
  });

  it("joins 300,000 chunks of one byte", () => {
    const chunks = Array.from({ length: 300_000 }, (_, index) => String(index % 10));
    const { taken, bytes } = gathered(chunks, 300_000);
    expect([taken.every(Boolean), bytes]).toEqual([true, chunks.join("")]);
  });

  it("takes a body of exactly the limit, and refuses the byte after it", () => {
    expect(gathered(["abc", "de", "f"], 5)).toEqual({ taken: [true, true, false], bytes: "abcde" });
    expect(gathered(["abcdef"], 5).taken).toEqual([false]);
  });
});
