// The source speaks the words a user knows: function and route names, ZITADEL. Names from inside
// the project's own notes would send a reader to documents they do not have.
import { describe, expect, it } from "vitest";
import { sourceFiles, SRC } from "./layers.js";

/** The phrases; "the contract suite", the adapter authors' test suite, keeps its name. */
const INSIDE_WORDS: readonly RegExp[] = [/\boperations? [AB]\b/i, /\bthe contract\b(?! suite)/i, /\breference server\b/i, /\bSPEC\b/, /\bthe issues\b/i];

function insideWords(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [path, source] of files) {
    source.split("\n").forEach((line, index) => {
      for (const word of INSIDE_WORDS) if (word.test(line)) found.push(`src/${path}:${index + 1}: ${line.trim()}`);
    });
  }
  return found;
}

describe("words from inside the project", () => {
  it("appear nowhere in src/", () => {
    expect(insideWords(sourceFiles(SRC))).toEqual([]);
  });

  it("are found where they are", () => {
    const files = new Map([
      ["a.ts", "/** Operation B's body. */"],
      ["b.ts", "// as the reference server writes it"],
      ["c.ts", "/** See the contract suite. */\n/** As the contract says. */"],
      ["d.ts", "/** SPEC section 7 */\nconst spec = 1;"],
    ]);
    expect(insideWords(files)).toEqual([
      "src/a.ts:1: /** Operation B's body. */",
      "src/b.ts:1: // as the reference server writes it",
      "src/c.ts:2: /** As the contract says. */",
      "src/d.ts:1: /** SPEC section 7 */",
    ]);
  });
});
