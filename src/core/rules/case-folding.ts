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
  const { singles, longer } = foldingTable();
  let folded = "";
  for (const char of decomposed) {
    const codePoint = char.codePointAt(0) ?? 0;
    const mapped = foldCodePoint(codePoint, singles, longer);
    if (mapped !== undefined) {
      folded += mapped;
      continue;
    }
    const compatible = hasCompatibilityForms && codePoint >= 0x80 ? char.normalize("NFKD") : char;
    if (compatible === char) {
      folded += char;
      continue;
    }
    // The parts of an NFKD have no decomposition of their own: the table alone folds them.
    for (const part of compatible) {
      const partCodePoint = part.codePointAt(0) ?? 0;
      folded += foldCodePoint(partCodePoint, singles, longer) ?? part;
    }
  }
  return folded.normalize("NFC");
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    if (text.charCodeAt(index) > 0x7f) return false;
  }
  return true;
}

/** The folded text of one code point, or undefined when the table leaves it as it is. */
function foldCodePoint(codePoint: number, singles: ReadonlyMap<number, string>, longer: ReadonlyMap<number, string>): string | undefined {
  return singles.get(codePoint) ?? longer.get(codePoint) ?? (isRemoved(codePoint) ? "" : undefined);
}

function isRemoved(codePoint: number): boolean {
  for (let index = 0; index < REMOVED_RANGES.length; index += 2) {
    const first = REMOVED_RANGES[index] ?? 0;
    if (codePoint < first) return false;
    if (codePoint <= (REMOVED_RANGES[index + 1] ?? 0)) return true;
  }
  return false;
}

interface FoldingTable {
  readonly singles: ReadonlyMap<number, string>;
  readonly longer: ReadonlyMap<number, string>;
}

let table: FoldingTable | undefined;

// Built on first use (about a thousand entries), so that importing the library costs nothing.
function foldingTable(): FoldingTable {
  if (table !== undefined) return table;
  const singles = new Map<number, string>();
  for (let index = 0; index < SINGLE_MAPPING_RUNS.length; index += 4) {
    const [first = 0, count = 0, stride = 1, delta = 0] = SINGLE_MAPPING_RUNS.slice(index, index + 4);
    for (let step = 0; step < count; step += 1) {
      const codePoint = first + step * stride;
      singles.set(codePoint, String.fromCodePoint(codePoint + delta));
    }
  }
  const longer = new Map<number, string>();
  for (const [from = 0, ...to] of LONGER_MAPPINGS) longer.set(from, String.fromCodePoint(...to));
  table = { singles, longer };
  return table;
}
