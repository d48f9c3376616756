// toNfkcCasefold against Unicode's own data files, when the machine has them (Debian's
// `unicode-data` package puts them in /usr/share/unicode; UNICODE_DATA_DIR points elsewhere). The
// reference here is Unicode's definition written out plainly: NFC of the NFKC_CF mapping of each
// code point of NFD(text), read straight from DerivedNormalizationProps.txt.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, type TestContext } from "vitest";
import { CASE_FOLDING_UNICODE_VERSION } from "../../src/core/rules/case-folding-table.js";
import { toNfkcCasefold } from "../../src/core/rules/case-folding.js";

const folder = process.env["UNICODE_DATA_DIR"] ?? "/usr/share/unicode";
const files = ["DerivedNormalizationProps.txt", "UnicodeData.txt", "CaseFolding.txt"].map((name) => join(folder, name));
const present = files.every((file) => existsSync(file));
const read = (name: string): string => readFileSync(join(folder, name), "utf8");

interface UnicodeData {
  readonly version: string;
  readonly nfkcCasefold: ReadonlyMap<number, string>;
  readonly assigned: readonly number[];
}

function parseRange(field: string): [number, number] {
  const [first = "", last] = field.split("..");
  const start = Number.parseInt(first, 16);
  return [start, last === undefined ? start : Number.parseInt(last, 16)];
}

const fromHex = (field: string): string => (field === "" ? "" : String.fromCodePoint(...field.split(" ").map((hex) => Number.parseInt(hex, 16))));

function loadData(): UnicodeData {
  const text = read("DerivedNormalizationProps.txt");
  const nfkcCasefold = new Map<number, string>();
  for (const line of text.split("\n")) {
    const [range = "", property = "", mapping = ""] = (line.split("#")[0] ?? "").split(";").map((field) => field.trim());
    if (property !== "NFKC_CF") continue;
    const [start, end] = parseRange(range);
    for (let codePoint = start; codePoint <= end; codePoint += 1) nfkcCasefold.set(codePoint, fromHex(mapping));
  }
  const assigned: number[] = [];
  let first: number | undefined;
  for (const line of read("UnicodeData.txt").split("\n")) {
    const [hex = "", name = "", category = ""] = line.split(";");
    if (hex === "" || category === "Cs") continue;
    const codePoint = Number.parseInt(hex, 16);
    if (name.endsWith(", First>")) first = codePoint;
    else if (name.endsWith(", Last>") && first !== undefined) for (let each = first; each <= codePoint; each += 1) assigned.push(each);
    else assigned.push(codePoint);
  }
  const version = /DerivedNormalizationProps-(\d+\.\d+\.\d+)\.txt/.exec(text)?.[1] ?? "unknown";
  return { version, nfkcCasefold, assigned };
}

const data = present ? loadData() : undefined;

/** Skips with the reason when the data files are missing or of another Unicode version than the table. */
function requireData(context: TestContext): UnicodeData {
  if (data === undefined) return context.skip(`the Unicode data files are not in ${folder} (apt-get install unicode-data, or set UNICODE_DATA_DIR)`);
  if (data.version !== CASE_FOLDING_UNICODE_VERSION) {
    return context.skip(`the data files are Unicode ${data.version}, the table ${CASE_FOLDING_UNICODE_VERSION}: regenerate it with scripts/generate-case-folding.ts`);
  }
  return data;
}

/** Unicode's identifier caseless matching, D147: toNFKC_Casefold(NFD(text)). */
function reference(unicode: UnicodeData, text: string): string {
  let mapped = "";
  for (const char of text.normalize("NFD")) mapped += unicode.nfkcCasefold.get(char.codePointAt(0) ?? 0) ?? char;
  return mapped.normalize("NFC");
}

/** A small deterministic generator, so that a failure can be replayed. */
function pseudoRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe("toNfkcCasefold against Unicode's data files", () => {
  it("folds every code point assigned in the table's Unicode version as NFKC_Casefold does", (context) => {
    const unicode = requireData(context);
    const codePoints = new Set([...unicode.assigned, ...unicode.nfkcCasefold.keys()]);
    const differing: string[] = [];
    for (const codePoint of codePoints) {
      const char = String.fromCodePoint(codePoint);
      if (toNfkcCasefold(char) !== reference(unicode, char)) differing.push(codePoint.toString(16));
    }
    expect({ checked: codePoints.size > 100_000, differing }).toEqual({ checked: true, differing: [] });
  });

  it("folds a lower-cased character as the character itself, so that old lower-cased claim keys can be recomputed", (context) => {
    const unicode = requireData(context);
    const differing = unicode.assigned.filter((codePoint) => {
      const char = String.fromCodePoint(codePoint).normalize("NFC");
      return toNfkcCasefold(char.toLowerCase()) !== toNfkcCasefold(char);
    });
    expect(differing).toEqual([]);
  });

  it("folds strings mixing cases, compatibility forms, combining marks and ignorable code points as NFKC_Casefold does", (context) => {
    const unicode = requireData(context);
    // The code points that change, plus what they meet in real names: letters, marks of every
    // combining class (U+0345 is reordered and folds to a letter), Hangul jamo, CJK.
    const pool = [...unicode.nfkcCasefold.keys()].filter((codePoint) => codePoint < 0xe0000);
    for (const codePoint of [0x61, 0x41, 0x69, 0x49, 0x131, 0x301, 0x308, 0x313, 0x316, 0x327, 0x345, 0x342, 0x3b9, 0x1100, 0x1161, 0x11a8, 0x5c7, 0x4e00, 0x20, 0x2e]) {
      for (let copies = 0; copies < 200; copies += 1) pool.push(codePoint);
    }
    const next = pseudoRandom(2_024);
    const differing: string[] = [];
    for (let round = 0; round < 30_000; round += 1) {
      const length = 1 + Math.floor(next() * 8);
      const text = String.fromCodePoint(...Array.from({ length }, () => pool[Math.floor(next() * pool.length)] ?? 0x61));
      if (toNfkcCasefold(text) !== reference(unicode, text)) differing.push(JSON.stringify(text));
    }
    expect(differing).toEqual([]);
  });

  it("gives every character of CaseFolding.txt (full folding, statuses C and F) the key of what it folds to, and ignores the Turkic T entries", (context) => {
    requireData(context);
    const differing: string[] = [];
    let turkic = 0;
    for (const line of read("CaseFolding.txt").split("\n")) {
      const [code = "", status = "", mapping = ""] = (line.split("#")[0] ?? "").split(";").map((field) => field.trim());
      const char = String.fromCodePoint(Number.parseInt(code || "0", 16));
      if (status === "C" || status === "F") {
        if (toNfkcCasefold(char) !== toNfkcCasefold(fromHex(mapping))) differing.push(code);
      } else if (status === "T") {
        turkic += 1;
        if (toNfkcCasefold(char) === toNfkcCasefold(fromHex(mapping))) differing.push(`${code} (Turkic)`);
      }
    }
    expect({ turkic, differing }).toEqual({ turkic: 2, differing: [] });
  });
});
