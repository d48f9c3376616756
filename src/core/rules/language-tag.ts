import { recentAnswers } from "../../shared/recent-answers.js";

// Intl's canonicalization costs microseconds, and requests name the same few languages.
const canonicalOf = recentAnswers((trimmed: string): string => {
  try {
    return Intl.getCanonicalLocales(trimmed)[0] ?? "und";
  } catch {
    return "und";
  }
}, 256);

/** The canonical form of a BCP 47 tag (`de-ch` -> `de-CH`), or `und` for one that does not parse. */
export function canonicalLanguageTag(tag: string): string {
  const trimmed = tag.trim();
  return trimmed === "" ? "und" : canonicalOf(trimmed);
}
