import { isAscii, toNfkcCasefold } from "./case-folding.js";
import { decodePunycode } from "./punycode.js";

// IDNA2008 registers ß and ς as letters of their own (straße.example is not strasse.example), and
// UTS #46 maps the capital ẞ to ß; folding them would look up a different domain.
const DISTINCT_LETTERS = /([ßς])/u;
// Besides the full stop, IDNA reads the ideographic full stop as a label separator; its full-width
// and half-width forms reach it (or the full stop) through compatibility normalization.
const IDEOGRAPHIC_FULL_STOP = /\u3002/gu;
const TRAILING_DOTS = /\.+$/u;

const ASCII_CAPITALS = /[A-Z]+/g;

/**
 * `domain` with its ASCII letters in lower case and the others as given: the one lowering every
 * store does alike (PostgreSQL lowers İ to i, JavaScript to i and a combining dot), so a key for
 * domains that still reaches the store as the host may have registered it.
 */
export function lowerAscii(domain: string): string {
  return domain.replace(ASCII_CAPITALS, (capitals) => capitals.toLowerCase());
}

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

const ACE_PREFIX = "xn--";
/** Text a URL parser would read as something other than a host name: such a domain gets no other spelling. */
const NOT_A_HOST = /[\s/\\?#@:%[\]<>^|"'`{}]/u;

/** `domain` as the runtime's URL parser writes a host (UTS #46: A-labels, lower case), or undefined when it is none. */
function urlHost(domain: string): string | undefined {
  if (domain === "" || NOT_A_HOST.test(domain)) return undefined;
  try {
    return new URL(`http://${domain}/`).hostname;
  } catch {
    return undefined;
  }
}

/** The domain with its A-labels (`xn--...`) decoded; undefined when one is no label this domain's ASCII form would have. */
function unicodeSpelling(domain: string): string | undefined {
  const labels = domain.split(".").map((label) => (label.startsWith(ACE_PREFIX) ? decodePunycode(label.slice(ACE_PREFIX.length)) : label));
  if (labels.some((label) => label === undefined || label === "")) return undefined;
  const decoded = labels.join(".");
  // Only a decoding that encodes back to the same labels is the same domain.
  return urlHost(decoded) === domain ? canonicalDomain(decoded) : undefined;
}

/**
 * The spellings of a canonical domain (see `canonicalDomain`) that name the same domain under
 * IDNA: the domain itself, then its ASCII form (every label an A-label where it is not ASCII)
 * and its Unicode form (every A-label decoded). A directory may hold any, so each is looked up.
 */
export function domainSpellings(domain: string): readonly string[] {
  if (isAscii(domain) && !domain.includes(ACE_PREFIX)) return [domain];
  const ascii = urlHost(domain);
  const unicode = ascii === undefined ? undefined : unicodeSpelling(ascii);
  return [...new Set([domain, ascii, unicode])].filter((spelling): spelling is string => spelling !== undefined);
}
