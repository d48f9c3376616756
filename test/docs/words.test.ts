// The README and the guides speak in the names users know: the functions and routes, not the
// project's own shorthand for them. "The contract suite" (the store authors' test suite) keeps
// its name.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { documentationFiles } from "./code-blocks.js";

const root = resolve(import.meta.dirname, "../..");

/** Phrases from inside the project that a reader of the docs cannot know. */
const insiderWords = [/\boperation [AB]\b/i, /\bthe contract\b(?! suite)/i, /\bSPEC\b/, /\breference server\b/i, /\bthe issues\b/i];

/** Each line that uses one, as `file:line: text`; a line break inside "the contract suite" is joined first. */
function insiderLines(file: string): string[] {
  const text = readFileSync(resolve(root, file), "utf8").replace(/\bthe contract\n(\s*)suite\b/gi, "the contract suite\n$1");
  return text.split("\n").flatMap((line, index) => (insiderWords.some((word) => word.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}

describe("the words of the README and the guides", () => {
  it("name functions and routes, never the project's shorthand", () => {
    expect(documentationFiles(root).flatMap(insiderLines)).toEqual([]);
  });

  it("would catch the shorthand (a check of the check)", () => {
    expect(insiderWords.filter((word) => word.test("operation A answers as the reference server does"))).toHaveLength(2);
    expect(insiderWords.some((word) => word.test("run the contract suite"))).toBe(false);
  });
});
