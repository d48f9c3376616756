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
  const hex = (value: number) => value.toString(16).padStart(8, "0");
  return `human_users_${hex(fnv1a(text, 0x811c9dc5))}${hex(fnv1a(text, 0x01000193))}`;
}
