// Every relative link of the README and the guides leads to a file of the repository, and every
// `#anchor` into a guide to one of its headings.
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { documentationFiles } from "./code-blocks.js";

const root = resolve(import.meta.dirname, "../..");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(file: string): Set<string> {
  const headings = readFileSync(file, "utf8").split("\n").filter((line) => /^#{1,6} /.test(line));
  return new Set(headings.map((line) => anchorOf(line.replace(/^#+ /, ""))));
}

/** Each broken link, as `file: target`. Links with a scheme (https:, mailto:) are not followed. */
function brokenLinks(file: string): string[] {
  const text = readFileSync(resolve(root, file), "utf8").replace(/^```[\s\S]*?^```/gm, "");
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? "");
  return targets
    .filter((target) => !/^[a-z]+:/i.test(target))
    .filter((target) => {
      const [path = "", anchor] = target.split("#");
      const linked = path === "" ? resolve(root, file) : resolve(dirname(resolve(root, file)), path);
      if (!existsSync(linked)) return true;
      return anchor !== undefined && linked.endsWith(".md") && !anchorsOf(linked).has(anchor);
    })
    .map((target) => `${file}: ${target}`);
}

describe("the links of the README and the guides", () => {
  it("lead to files and headings that exist", () => {
    expect(documentationFiles(root).flatMap(brokenLinks)).toEqual([]);
  });
});
