import type { IdpLinkDraft } from "../user-draft.js";

/**
 * The identity of an account at an identity provider: the provider and the user's id there,
 * kept apart whatever characters they contain. Two links with one key are the same account.
 */
export function idpAccountKey(link: Pick<IdpLinkDraft, "idpId" | "externalUserId">): string {
  return JSON.stringify([link.idpId, link.externalUserId]);
}
