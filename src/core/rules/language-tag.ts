import { recentAnswers } from "../../shared/recent-answers.js";

// BCP 47 tags that Intl (Unicode locale identifiers) does not take but RFC 5646 does.
// The grandfathered tags of the IANA registry, by lower-case spelling: the Preferred-Value where
// the registry gives one, else the tag itself, which is then its own canonical form.
const GRANDFATHERED: ReadonlyMap<string, string> = new Map(Object.entries({
  "art-lojban": "jbo",
  "cel-gaulish": "cel-gaulish",
  "en-gb-oed": "en-GB-oxendict",
  "i-ami": "ami",
  "i-bnn": "bnn",
  "i-default": "i-default",
  "i-enochian": "i-enochian",
  "i-hak": "hak",
  "i-klingon": "tlh",
  "i-lux": "lb",
  "i-mingo": "i-mingo",
  "i-navajo": "nv",
  "i-pwn": "pwn",
  "i-tao": "tao",
  "i-tay": "tay",
  "i-tsu": "tsu",
  "no-bok": "nb",
  "no-nyn": "nn",
  "sgn-be-fr": "sfb",
  "sgn-be-nl": "vgt",
  "sgn-ch-de": "sgg",
  "zh-guoyu": "cmn",
  "zh-hakka": "hak",
  "zh-min": "zh-min",
  "zh-min-nan": "nan",
  "zh-xiang": "hsn",
}));

/** A language with an extended language subtag (`zh-cmn`, `sgn-ase`): every extlang's Preferred-Value is the extlang itself. */
const EXTLANG = /^[a-z]{2,3}-([a-z]{3})(?=-|$)/i;

/** A private-use tag alone (`x-whatever`), canonical in lower case. */
const PRIVATE_USE = /^x(?:-[a-z0-9]{1,8})+$/i;

function intlCanonical(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

// Intl's canonicalization costs microseconds, and requests name the same few languages.
const canonicalOf = recentAnswers((trimmed: string): string => {
  const direct = intlCanonical(trimmed);
  if (direct !== undefined) return direct;
  // A Map: a tag such as "__proto__" must find nothing, not a member every object has.
  const grandfathered = GRANDFATHERED.get(trimmed.toLowerCase());
  if (grandfathered !== undefined) return intlCanonical(grandfathered) ?? grandfathered;
  if (PRIVATE_USE.test(trimmed)) return trimmed.toLowerCase();
  const extlang = EXTLANG.exec(trimmed);
  if (extlang !== null) return intlCanonical(`${extlang[1] as string}${trimmed.slice(extlang[0].length)}`) ?? "und";
  return "und";
}, 256);

/** Whether `tag` is a language tag as Intl takes it (`en`, `de-CH`, `und`), the form template sets are keyed by. */
export function isIntlLanguageTag(tag: string): boolean {
  return intlCanonical(tag) !== undefined;
}

/**
 * The canonical form of a BCP 47 tag (`de-ch` -> `de-CH`, as Intl writes it; `i-klingon` ->
 * `tlh`, `zh-yue` -> `yue`, as RFC 5646's registry maps them), or `und` for one that does not parse.
 */
export function canonicalLanguageTag(tag: string): string {
  const trimmed = tag.trim();
  return trimmed === "" ? "und" : canonicalOf(trimmed);
}
