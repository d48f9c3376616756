import { isAscii, toNfkcCasefold } from "./case-folding.js";

// IDNA2008 registers ß and ς as letters of their own (straße.example is not strasse.example), and
// UTS #46 maps the capital ẞ to ß; folding them would look up a different domain.
const DISTINCT_LETTERS = /([ßς])/u;
// Besides the full stop, IDNA reads the ideographic full stop as a label separator; its full-width
// and half-width forms reach it (or the full stop) through compatibility normalization.
const IDEOGRAPHIC_FULL_STOP = /\u3002/gu;
const TRAILING_DOTS = /\.+$/u;

/**
 * A domain name as IDNA compares it: compatibility forms and case folded away (`ＡＣＭＥ．test` is
 * `acme.test`), invisible default-ignorable code points removed, the ideographic full stop read as a
 * dot, and the trailing dots of a fully qualified name dropped. Punycode (`xn--`) labels are kept
 * as they are, not decoded.
 */
export function canonicalDomain(domain: string): string {
  if (isAscii(domain)) return domain.toLowerCase().replace(TRAILING_DOTS, "");
  const folded = domain
    .normalize("NFKC")
    .replaceAll("ẞ", "ß")
    .split(DISTINCT_LETTERS)
    .map((part, index) => (index % 2 === 1 ? part : toNfkcCasefold(part)))
    .join("");
  return folded.replace(IDEOGRAPHIC_FULL_STOP, ".").replace(TRAILING_DOTS, "");
}
