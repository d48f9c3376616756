/** The canonical form of a BCP 47 tag (`de-ch` -> `de-CH`), or `und` for one that does not parse. */
export function canonicalLanguageTag(tag: string): string {
  const trimmed = tag.trim();
  if (trimmed === "") return "und";
  try {
    return Intl.getCanonicalLocales(trimmed)[0] ?? "und";
  } catch {
    return "und";
  }
}
