// The links file: every link kept whole, in one file opened once, however the writes overlap.
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openLinks, type LinkEntry } from "../../src/cli/links.js";
import { scratchFolder } from "./support.js";

const scratch = scratchFolder("links-file");

const entries = (batch: number, count: number): LinkEntry[] =>
  Array.from({ length: count }, (_, index) => ({
    line: batch * count + index + 1,
    userId: `${batch}-${index}`,
    link: `https://login.acme.test/ui/login/login/passwordless/init?userID=${batch}-${index}&code=${"x".repeat(200)}`,
    lifetime: "3600s",
    expiresAt: "2026-01-01T01:00:00.000Z",
  }));

describe("openLinks", () => {
  it("keeps overlapping writes whole and in order, each line parseable, the file owner-only", async () => {
    const path = `${scratch.path}/overlap.links.jsonl`;
    const links = openLinks(path);
    // Each write is larger than one append's piece (512 KiB), so unordered writes would mix lines.
    await Promise.all([0, 1, 2].map((batch) => links.write(entries(batch, 3000))));
    await links.close();
    const lines = readFileSync(path, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as LinkEntry);
    expect(lines.map((entry) => entry.line)).toEqual(Array.from({ length: 9000 }, (_, index) => index + 1));
    expect([links.written, statSync(path).mode & 0o777]).toEqual([9000, 0o600]);
  });

  it("fails every write after one has failed, even once the file could be written, so that no line is glued to one cut off", async () => {
    const folder = `${scratch.path}/later`;
    const links = openLinks(`${folder}/links.jsonl`);
    await expect(links.write(entries(0, 1))).rejects.toThrow(/could not be written/);
    mkdirSync(folder);
    await expect(links.write(entries(1, 1))).rejects.toThrow(/could not be written/);
    await links.close();
    expect(existsSync(`${folder}/links.jsonl`)).toBe(false);
  });
});
