/** Names already drawn, by text: hashing the append's few kilobytes on every call shows in profiles. */
const names = new Map<string, string>();
const NAMES_KEPT = 500;

/** FNV-1a over UTF-16 code units, 32 bits, from `seed`. */
function fnv1a(text: string, seed: number): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * A prepared statement's name drawn from its text, so that two copies of the library sharing one
 * pool (ESM beside CJS) agree on every name: `pg` refuses one name used for two texts.
 */
export function statementName(text: string): string {
  const known = names.get(text);
  if (known !== undefined) return known;
  const hex = (value: number) => value.toString(16).padStart(8, "0");
  const name = `human_users_${hex(fnv1a(text, 0x811c9dc5))}${hex(fnv1a(text, 0x01000193))}`;
  // The store's texts are a few dozen, but listing queries vary with their filters: the memo stays bounded.
  if (names.size >= NAMES_KEPT) names.clear();
  names.set(text, name);
  return name;
}
