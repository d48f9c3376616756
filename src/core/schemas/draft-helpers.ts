import type { IdpLinkDraft, MetadataDraft } from "../user-draft.js";

/** A blank display name becomes `givenName familyName`. */
export function defaultDisplayName(displayName: string | null | undefined, givenName: string, familyName: string): string {
  return displayName != null && displayName !== "" ? displayName : `${givenName} ${familyName}`;
}

/** A repeated key: the last value wins, at the key's first position. */
export function lastValuePerKey(entries: readonly MetadataDraft[]): MetadataDraft[] {
  const byKey = new Map<string, Uint8Array>();
  for (const entry of entries) byKey.set(entry.key, entry.value);
  return [...byKey].map(([key, value]) => ({ key, value }));
}

/** One link per provider account: a repeat within the request is dropped, the first one kept. */
export function firstLinkPerAccount(links: readonly IdpLinkDraft[]): IdpLinkDraft[] {
  const seen = new Set<string>();
  return links.filter((link) => {
    const account = JSON.stringify([link.idpId, link.externalUserId]);
    if (seen.has(account)) return false;
    seen.add(account);
    return true;
  });
}
