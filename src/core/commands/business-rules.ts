import { err, ok, type Result } from "neverthrow";
import type { Organization, UniqueClaim } from "../../ports/storage.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { alreadyExists, identityProviderNotFound, reservedDomain } from "../errors/user-errors.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import { idpAccountKey } from "../rules/idp-account.js";
import { usernameClaimKey, usernameDomain } from "../rules/username.js";
import type { UserDraft } from "../user-draft.js";
import { callPort } from "./port-call.js";

const INSTANCE = "";

/** The uniqueness claims a new user takes; usernames per organization when its policy says so. */
export function userClaims(userId: string, draft: UserDraft, organization: Organization): UniqueClaim[] {
  const usernameScope = organization.policy?.userLoginMustBeDomain === true ? organization.id : INSTANCE;
  return [
    { kind: "user_id", scope: INSTANCE, key: userId },
    { kind: "username", scope: usernameScope, key: usernameClaimKey(draft.username) },
    ...draft.idpLinks.map((link): UniqueClaim => ({ kind: "idp_link", scope: INSTANCE, key: idpAccountKey(link) })),
  ];
}

export interface RuleFields {
  /** Where a refused username came from: the username field, or the email it defaulted to. */
  readonly usernameField: string;
}

/**
 * The rules that need storage, in the contract's order: user id free, username free, every
 * identity provider known here, every provider account free, and the username's domain not
 * verified by another organization.
 */
export async function checkBusinessRules(
  ports: ResolvedPorts,
  draft: UserDraft,
  organization: Organization,
  claims: readonly UniqueClaim[],
  fields: RuleFields,
): Promise<Result<void, ErrorBody>> {
  const { storage, logger } = ports;
  const held = await callPort("storage lookup of claims", logger, () => storage.findHeldClaims(claims));
  if (held.isErr()) return err(held.error);
  const heldKinds = new Set(held.value.map((claim) => claim.kind));
  if (heldKinds.has("user_id")) return err(alreadyExists("user_id"));
  if (heldKinds.has("username")) return err(alreadyExists("username"));

  for (const link of draft.idpLinks) {
    const provider = await callPort("storage lookup of an identity provider", logger, () => storage.findIdentityProvider(link.idpId));
    if (provider.isErr()) return err(provider.error);
    const usable = provider.value !== undefined && (provider.value.orgId === undefined || provider.value.orgId === organization.id);
    if (!usable) return err(identityProviderNotFound());
  }
  if (heldKinds.has("idp_link")) return err(alreadyExists("idp_link"));

  const domain = usernameDomain(draft.username);
  if (domain !== undefined) {
    const owner = await callPort("storage lookup of a domain", logger, () => storage.findOrganizationByDomain(domain));
    if (owner.isErr()) return err(owner.error);
    if (owner.value !== undefined && owner.value.id !== organization.id) return err(reservedDomain(fields.usernameField));
  }
  return ok(undefined);
}
