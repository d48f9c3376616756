import { err, ok, type Result } from "neverthrow";
import type { Requester } from "../../ports/authorizer.js";
import type { StoredEvent, UniqueClaim } from "../../ports/user-log.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { claimKey } from "../claims.js";
import { askAuthorizer } from "../commands/ask-authorizer.js";
import { callPort } from "../commands/port-call.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import { foldUser } from "../users/fold-user.js";
import { CURRENT_RULE, ruleOf, type FingerprintRule } from "../users/import-fingerprint.js";
import type { ImportHolder } from "./bulk-outcome.js";

/** Where a claim's holder is: an earlier row of the source, or a stored user by its id. */
export type HolderAt = { readonly earlierIndex: number } | { readonly userId: string };

/**
 * Who holds a claim, and the fingerprint it was imported with (undefined: not imported); `shown`
 * is how an answer names it (a stored user the requester may not read is not named).
 */
export interface Holder {
  readonly at: HolderAt;
  readonly fingerprint: string | undefined;
  readonly shown: ImportHolder;
}

export interface Clash {
  readonly claim: UniqueClaim;
  readonly holder: Holder;
}

/** What a row is, given the holders of the claims it wants. */
export type Verdict =
  | { readonly kind: "new" }
  | { readonly kind: "already-there"; readonly holder: ImportHolder }
  | { readonly kind: "conflict"; readonly claim: UniqueClaim; readonly holder: ImportHolder };

/** How an answer names a stored user: by id when the requester may read it, else hidden (also when the authorizer cannot say). */
export function shownHolder(ports: ResolvedPorts, requester: Requester | undefined, userId: string, orgId: string | undefined): ImportHolder | Promise<ImportHolder> {
  if (requester === undefined || orgId === undefined) return { hiddenUser: true };
  const shown = (readable: Result<boolean, ErrorBody>): ImportHolder => (readable.isOk() && readable.value ? { userId } : { hiddenUser: true });
  // Without a promise when the authorizer answers at once (the default one does): a re-run asks once per row.
  const readable = askAuthorizer(ports.authorizer, ports.logger, requester, "user.read", orgId, userId);
  return readable instanceof Promise ? readable.then(shown) : shown(readable);
}

/** A row's import fingerprint under a rule (see `fingerprintsOf`): a holder is compared under its own. */
export type RowFingerprint = (rule: FingerprintRule) => string;

/** Whether the holder was imported from the row's request: its fingerprint equals the row's under the rule it was made with. */
function importedAs(row: RowFingerprint, held: string | undefined): boolean {
  const rule = held === undefined ? undefined : ruleOf(held);
  return rule !== undefined && row(rule) === held;
}

function sameHolder(a: HolderAt, b: HolderAt): boolean {
  return "userId" in a ? "userId" in b && a.userId === b.userId : "earlierIndex" in b && a.earlierIndex === b.earlierIndex;
}

/**
 * A row whose claims nobody holds is new. It is already there when one holder holds every claim
 * it clashes on and was imported with the row's fingerprint (under the holder's rule, so that
 * users imported by 0.2.0 are still recognized); otherwise it is a conflict, named
 * after the first clash that is not that same user.
 */
export function judge(row: RowFingerprint, clashes: readonly Clash[]): Verdict {
  const [first] = clashes;
  if (first === undefined) return { kind: "new" };
  const differing = clashes.find((clash) => !importedAs(row, clash.holder.fingerprint) || !sameHolder(clash.holder.at, first.holder.at));
  if (differing === undefined) return { kind: "already-there", holder: first.holder.shown };
  return { kind: "conflict", claim: differing.claim, holder: differing.holder.shown };
}

/**
 * The claims of the rows of one import that are to be written, by claim key, with the row's index
 * and fingerprint (the current rule's: rows of one source are compared by it): how a row is
 * compared with the earlier rows of its own source, whether they are written yet or not (a dry run
 * writes none). About 370 bytes per such row (measured, 200,000 rows).
 */
export class SourceClaims {
  readonly #rows = new Map<string, Holder>();

  find(claim: UniqueClaim): Holder | undefined {
    return this.#rows.get(claimKey(claim));
  }

  add(claims: readonly UniqueClaim[], index: number, row: RowFingerprint): void {
    const at = { earlierIndex: index };
    const holder: Holder = { at, fingerprint: row(CURRENT_RULE), shown: at };
    for (const claim of claims) this.#rows.set(claimKey(claim), holder);
  }
}

/** A stored user as the holder of claims, from its events, named as `requester` may see it. */
export function storedUserHolder(ports: ResolvedPorts, requester: Requester | undefined, userId: string, events: readonly StoredEvent[]): Holder | Promise<Holder> {
  const state = foldUser(events);
  const holder = (shown: ImportHolder): Holder => ({ at: { userId }, fingerprint: state?.importFingerprint, shown });
  const shown = shownHolder(ports, requester, userId, state?.orgId);
  return shown instanceof Promise ? shown.then(holder) : holder(shown);
}

/** The stored user holding `claim`, with its import fingerprint; undefined when nobody holds it (any more). */
export async function storedHolder(ports: ResolvedPorts, requester: Requester | undefined, claim: UniqueClaim): Promise<Result<Holder | undefined, ErrorBody>> {
  const holderId = await callPort("storage lookup of a claim holder", ports.logger, () => ports.userLog.findClaimHolder(claim));
  if (holderId.isErr()) return err(holderId.error);
  if (holderId.value === undefined) return ok(undefined);
  const userId = holderId.value;
  const events = await callPort("storage read of a user", ports.logger, () => ports.userLog.loadEvents(userId));
  if (events.isErr()) return err(events.error);
  return ok(await storedUserHolder(ports, requester, userId, events.value));
}
