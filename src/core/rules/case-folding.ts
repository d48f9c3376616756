import { LONGER_MAPPINGS, REMOVED_RANGES, SINGLE_MAPPING_RUNS } from "./case-folding-table.js";

/**
 * Unicode's caseless identifier matching (D147 in chapter 3 of the Unicode Standard):
 * toNFKC_Casefold(NFD(text)). Compatibility forms become their plain letters (`ﬁ` is `fi`, `＠` is
 * `@`), case is folded fully (`ß` is `ss`, `ſ` is `s`, a final `ς` is `σ`), and default-ignorable
 * code points such as zero-width spaces and variation selectors are removed, so that strings which
 * only look different in those ways fold to the same text.
 *
 * The mappings are Unicode's default ones, not the Turkic ones: `I` folds to `i`, `İ` to `i` with a
 * combining dot above, and the dotless `ı` stays itself. JavaScript's own `toLowerCase` is not used
 * beyond ASCII, so the result depends only on the table (see case-folding-table.ts for its Unicode
 * version) and on the runtime's normalization, which Unicode keeps stable for assigned characters.
 */
export function toNfkcCasefold(text: string): string {
  if (isAscii(text)) return text.toLowerCase();
  const decomposed = text.normalize("NFD");
  // Only a string holding compatibility characters needs them expanded one by one (the slow part).
  const hasCompatibilityForms = decomposed.normalize("NFKD") !== decomposed;
  const mappings = foldingTable();
  let folded = "";
  // Code points that stay as they are are copied in runs, not one by one.
  let unchangedFrom = 0;
  let index = 0;
  while (index < decomposed.length) {
    const codePoint = decomposed.codePointAt(index) ?? 0;
    const width = codePoint > 0xffff ? 2 : 1;
    let replacement = foldCodePoint(codePoint, mappings);
    if (replacement === undefined && hasCompatibilityForms && codePoint >= 0x80) {
      const char = decomposed.slice(index, index + width);
      const compatible = char.normalize("NFKD");
      // The parts of an NFKD have no decomposition of their own: the table alone folds them.
      if (compatible !== char) replacement = foldParts(compatible, mappings);
    }
    if (replacement !== undefined) {
      folded += decomposed.slice(unchangedFrom, index) + replacement;
      unchangedFrom = index + width;
    }
    index += width;
  }
  return (folded + decomposed.slice(unchangedFrom)).normalize("NFC");
}

/** True when every code unit is ASCII: such text folds by lower-casing alone. */
export function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    if (text.charCodeAt(index) > 0x7f) return false;
  }
  return true;
}

function foldParts(text: string, mappings: ReadonlyMap<number, string>): string {
  let folded = "";
  for (const part of text) folded += foldCodePoint(part.codePointAt(0) ?? 0, mappings) ?? part;
  return folded;
}

/** The folded text of one code point, or undefined when the table leaves it as it is. */
function foldCodePoint(codePoint: number, mappings: ReadonlyMap<number, string>): string | undefined {
  if (codePoint < 0x80) return codePoint >= 0x41 && codePoint <= 0x5a ? String.fromCharCode(codePoint + 0x20) : undefined;
  return mappings.get(codePoint) ?? (isRemoved(codePoint) ? "" : undefined);
}

function isRemoved(codePoint: number): boolean {
  for (let index = 0; index < REMOVED_RANGES.length; index += 2) {
    const first = REMOVED_RANGES[index] ?? 0;
    if (codePoint < first) return false;
    if (codePoint <= (REMOVED_RANGES[index + 1] ?? 0)) return true;
  }
  return false;
}

let table: Map<number, string> | undefined;

// Built on first use (about a thousand entries), so that importing the library costs nothing.
function foldingTable(): ReadonlyMap<number, string> {
  if (table !== undefined) return table;
  const mappings = new Map<number, string>();
  for (let index = 0; index < SINGLE_MAPPING_RUNS.length; index += 4) {
    const [first = 0, count = 0, stride = 1, delta = 0] = SINGLE_MAPPING_RUNS.slice(index, index + 4);
    for (let step = 0; step < count; step += 1) {
      const codePoint = first + step * stride;
      mappings.set(codePoint, String.fromCodePoint(codePoint + delta));
    }
  }
  for (const [from = 0, ...to] of LONGER_MAPPINGS) mappings.set(from, String.fromCodePoint(...to));
  table = mappings;
  return table;
}
