import { describe, expect, it } from "vitest";
import { escapeHtml } from "../../src/notifications/escape.js";

/** The escaping as it was before values without special characters were returned untouched. */
function replaceEveryTime(value: string): string {
  const entities: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  return value.replace(/[&<>"']/g, (character) => entities[character] ?? character);
}

/** A small deterministic generator, so a failure names a string that can be found again. */
function* pseudoRandomStrings(count: number): Generator<string> {
  const alphabet = ["&", "<", ">", '"', "'", "a", "Z", "0", " ", ";", "#", "&amp;", "&#39;", "\u00e9", "\ud83d\ude00", "\ud83d", "\u0000", "\n", "\u2028", "=", "/"];
  let state = 0x2545f491;
  for (let index = 0; index < count; index++) {
    let text = "";
    state = (state * 1103515245 + 12345) >>> 0;
    const length = state % 12;
    for (let at = 0; at < length; at++) {
      state = (state * 1103515245 + 12345) >>> 0;
      text += alphabet[state % alphabet.length] ?? "";
    }
    yield text;
  }
}

describe("escapeHtml", () => {
  it("escapes exactly as replacing every special character did, on tricky and on many generated strings", () => {
    const tricky = ["", "plain", "Ada Lovelace", "&", "&&", "<script>alert('x')</script>", 'a"b', "&amp;", "https://a.example/v?x=1&y=2", "\ud83d\ude00<\ud83d", "'''", "a\u0000<b"];
    for (const value of [...tricky, ...pseudoRandomStrings(5000)]) expect(escapeHtml(value)).toBe(replaceEveryTime(value));
  });

  it("gives the same answer however often it is called in a row, with and without special characters", () => {
    const values = ["<a>", "b", "<a>", "&", "c", "'"];
    const first = values.map(escapeHtml);
    expect(values.map(escapeHtml)).toEqual(first);
    expect(first).toEqual(["&lt;a&gt;", "b", "&lt;a&gt;", "&amp;", "c", "&#39;"]);
  });
});
