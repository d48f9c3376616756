// Writes src/core/rules/case-folding-table.ts from Unicode's DerivedNormalizationProps.txt (the
// NFKC_Casefold property) and UnicodeData.txt (which code points that version assigns).
//
//   npx tsx scripts/generate-case-folding.ts [data folder, default /usr/share/unicode]
//
// Debian's `unicode-data` package installs both files there. Run it on a JavaScript runtime whose
// Unicode version is at least the data's: the table leaves out what the runtime's NFD/NFKD already
// get right, and normalization of assigned characters never changes between Unicode versions.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const folder = process.argv[2] ?? "/usr/share/unicode";
const OUTPUT = "src/core/rules/case-folding-table.ts";

interface Parsed {
  readonly version: string;
  /** NFKC_CF of every code point the file lists; the others map to themselves. */
  readonly mappings: ReadonlyMap<number, readonly number[]>;
}

function parseNfkcCasefold(path: string): Parsed {
  const text = readFileSync(path, "utf8");
  const version = /DerivedNormalizationProps-(\d+\.\d+\.\d+)\.txt/.exec(text)?.[1];
  if (version === undefined) throw new Error(`${path}: no version in the header`);
  const mappings = new Map<number, readonly number[]>();
  for (const line of text.split("\n")) {
    const fields = (line.split("#")[0] ?? "").split(";").map((field) => field.trim());
    if (fields[1] !== "NFKC_CF" || fields[0] === undefined) continue;
    const [first, last] = fields[0].split("..");
    const start = Number.parseInt(first ?? "", 16);
    const end = last === undefined ? start : Number.parseInt(last, 16);
    const target = fields[2] === undefined || fields[2] === "" ? [] : fields[2].split(/\s+/).map((hex) => Number.parseInt(hex, 16));
    for (let codePoint = start; codePoint <= end; codePoint += 1) mappings.set(codePoint, target);
  }
  return { version, mappings };
}

function parseAssigned(path: string): (codePoint: number) => boolean {
  const ranges: [number, number][] = [];
  let rangeStart: number | undefined;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const [hex, name] = line.split(";");
    if (hex === undefined || name === undefined || hex === "") continue;
    const codePoint = Number.parseInt(hex, 16);
    if (name.endsWith(", First>")) rangeStart = codePoint;
    else if (name.endsWith(", Last>") && rangeStart !== undefined) ranges.push([rangeStart, codePoint]);
    else ranges.push([codePoint, codePoint]);
  }
  return (codePoint) => ranges.some(([start, end]) => codePoint >= start && codePoint <= end);
}

const same = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((value, index) => value === b[index]);
const codePoints = (text: string): number[] => Array.from(text, (char) => char.codePointAt(0) ?? 0);

const { version, mappings } = parseNfkcCasefold(join(folder, "DerivedNormalizationProps.txt"));
const assigned = parseAssigned(join(folder, "UnicodeData.txt"));

// The runtime folds NFD(text) one code point at a time, so only code points that survive NFD need
// an entry. Those without any decomposition take their NFKC_CF from the table or map to themselves.
const singles = new Map<number, number>();
const longer = new Map<number, readonly number[]>();
const removed: number[] = [];
const compatibility: number[] = [];
for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
  const char = String.fromCodePoint(codePoint);
  if (char.normalize("NFD") !== char) continue;
  if (char.normalize("NFKD") !== char) {
    compatibility.push(codePoint);
    continue;
  }
  const target = mappings.get(codePoint);
  if (target === undefined || same(target, [codePoint])) continue;
  if (target.length === 0) removed.push(codePoint);
  else if (target.length === 1) singles.set(codePoint, target[0] ?? codePoint);
  else longer.set(codePoint, target);
}

// A character with a compatibility decomposition is folded as its NFKD, part by part; it needs an
// entry of its own only where that differs from its NFKC_CF (none in Unicode 15.0). Code points the
// data does not assign are left to the runtime, whatever its Unicode version knows of them.
const foldPart = (codePoint: number): number[] => {
  const single = singles.get(codePoint);
  if (single !== undefined) return [single];
  return [...(longer.get(codePoint) ?? (removed.includes(codePoint) ? [] : [codePoint]))];
};
for (const codePoint of compatibility) {
  if (!assigned(codePoint) && !mappings.has(codePoint)) continue;
  const expected = String.fromCodePoint(...(mappings.get(codePoint) ?? [codePoint])).normalize("NFC");
  const parts = codePoints(String.fromCodePoint(codePoint).normalize("NFKD")).flatMap(foldPart);
  if (String.fromCodePoint(...parts).normalize("NFC") !== expected) longer.set(codePoint, mappings.get(codePoint) ?? [codePoint]);
}

/** One-to-one mappings as runs of [start, count, stride, delta]: stride 1 (A..Z) or 2 (alternating cases). */
function singleRuns(): number[][] {
  const runs: number[][] = [];
  const sorted = [...singles].sort(([a], [b]) => a - b);
  let index = 0;
  while (index < sorted.length) {
    const [start, target] = sorted[index] ?? [0, 0];
    const delta = target - start;
    let best = [start, 1, 1, delta];
    for (const stride of [1, 2]) {
      let count = 1;
      for (;;) {
        const next = sorted[index + count];
        if (next === undefined || next[0] !== start + count * stride || next[1] - next[0] !== delta) break;
        count += 1;
      }
      if (count > (best[1] ?? 1)) best = [start, count, stride, delta];
    }
    runs.push(best);
    index += best[1] ?? 1;
  }
  return runs;
}

function removedRanges(): number[][] {
  const ranges: number[][] = [];
  for (const codePoint of removed) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last[1] === codePoint - 1) last[1] = codePoint;
    else ranges.push([codePoint, codePoint]);
  }
  return ranges;
}

const hex = (value: number): string => (value < 0 ? `-0x${(-value).toString(16)}` : `0x${value.toString(16)}`);
const rows = (items: readonly string[], perLine: number): string => {
  const lines: string[] = [];
  for (let at = 0; at < items.length; at += perLine) lines.push(`  ${items.slice(at, at + perLine).join(" ")}`);
  return lines.join("\n");
};

const runs = singleRuns();
const output = `// Generated by scripts/generate-case-folding.ts from Unicode ${version} (DerivedNormalizationProps.txt,
// property NFKC_Casefold, and UnicodeData.txt); do not edit. Regenerate with
//   npx tsx scripts/generate-case-folding.ts [folder holding the data files]
// ${singles.size} one-to-one mappings in ${runs.length} runs, ${longer.size} longer mappings, ${removed.length} removed code points in ${removedRanges().length} ranges.

/** The Unicode version the mappings come from. */
export const CASE_FOLDING_UNICODE_VERSION = "${version}";

/** One-to-one mappings, four numbers a run: first code point, count, stride (1 or 2), delta to add. */
export const SINGLE_MAPPING_RUNS: readonly number[] = [
${rows(runs.map((run) => `${hex(run[0] ?? 0)}, ${run[1]}, ${run[2]}, ${hex(run[3] ?? 0)},`), 4)}
];

/** Code points that map to more than one code point: [code point, ...its mapping]. */
export const LONGER_MAPPINGS: readonly (readonly number[])[] = [
${rows([...longer].sort(([a], [b]) => a - b).map(([from, to]) => `[${[from, ...to].map(hex).join(", ")}],`), 4)}
];

/** Default-ignorable code points, which NFKC_Casefold removes: first and last of each range. */
export const REMOVED_RANGES: readonly number[] = [
${rows(removedRanges().map(([first, last]) => `${hex(first ?? 0)}, ${hex(last ?? 0)},`), 6)}
];
`;
writeFileSync(OUTPUT, output);
console.log(`${OUTPUT}: Unicode ${version}, ${runs.length} runs, ${longer.size} longer mappings, ${removedRanges().length} removed ranges`);
