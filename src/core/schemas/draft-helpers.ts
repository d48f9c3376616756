import type { Gender } from "../rules/gender.js";
import type { MetadataDraft, ProfileDraft } from "../user-draft.js";

/** The optional profile members both request shapes share; `null` means absent. */
export interface OptionalProfile {
  readonly nickName?: string | null | undefined;
  readonly displayName?: string | null | undefined;
  readonly preferredLanguage?: string | null | undefined;
  readonly gender?: Gender | null | undefined;
}

/** The stored profile, defaults filled: a blank display name becomes `givenName familyName`. */
export function profileDraft(givenName: string, familyName: string, optional: OptionalProfile): ProfileDraft {
  const displayName = optional.displayName;
  return {
    givenName,
    familyName,
    nickName: optional.nickName ?? "",
    displayName: displayName != null && displayName !== "" ? displayName : `${givenName} ${familyName}`,
    preferredLanguage: optional.preferredLanguage ?? "und",
    gender: optional.gender ?? "GENDER_UNSPECIFIED",
  };
}

/** A repeated key: the last value wins, at the key's first position. */
export function lastValuePerKey(entries: readonly MetadataDraft[]): MetadataDraft[] {
  const byKey = new Map<string, Uint8Array>();
  for (const entry of entries) byKey.set(entry.key, entry.value);
  return [...byKey].map(([key, value]) => ({ key, value }));
}

