import type { JsonObject } from "../shared/json.js";
import type { OutboxNotification, PendingNotification } from "./outbox.js";
import type { UserListing, UserPage, UserQuery } from "./user-listing.js";

/** What a unique claim reserves: a user id, a username, an identity-provider account, or a passkey's credential id. */
export type ClaimKind = "user_id" | "username" | "idp_link" | "passkey";

/**
 * A uniqueness claim. `key` is already normalized by the core (see `claimKey` for the one string a
 * store may index it by), so a store compares keys exactly; `scope` is "" for instance-wide
 * claims, else an organization id.
 */
export interface UniqueClaim {
  readonly kind: ClaimKind;
  readonly scope: string;
  readonly key: string;
}

/** One event of one user's stream, as stored. */
export interface StoredEvent {
  /** The event's name, as ZITADEL writes it (`user.human.added`, ...). */
  readonly type: string;
  /** The user the event belongs to. */
  readonly aggregateId: string;
  readonly orgId: string;
  /** 1, 2, 3, ... per user, without gaps. */
  readonly sequence: number;
  /**
   * RFC 3339 UTC. A store may answer another spelling of the same instant than it was given (the
   * SQL stores answer `toISOString()` form, `.000Z` included; the memory store answers the text
   * written): compare instants (`Date.parse`), never the text.
   */
  readonly createdAt: string;
  /** JSON; never a plain password, code or secret. */
  readonly payload: JsonObject;
}

/** Everything one decision about one user writes; a store writes all of it or nothing. */
export interface UserAppend {
  readonly userId: string;
  readonly orgId: string;
  /**
   * The last sequence of the user's stream that the decision was made on: 0 for a new user, whose
   * stream must not exist yet. The events are numbered from `expectedSequence + 1`.
   */
  readonly expectedSequence: number;
  readonly events: readonly StoredEvent[];
  /** Claims taken, held by this user from now on. */
  readonly claims: readonly UniqueClaim[];
  /**
   * Claims this user gives up (a changed username); ones it does not hold are ignored. The core
   * never lists a claim both here and in `claims` (a claim the user keeps is in neither list); a
   * store answers such an append `claim-held`, as one taking a held claim.
   */
  readonly releasedClaims?: readonly UniqueClaim[];
  readonly notifications: readonly OutboxNotification[];
  /**
   * Set when the writer delivers the notifications itself right after the write: a store that can
   * writes them already leased until then (as `Outbox.lease` would) and answers them as `leased`,
   * which saves the writer a lease call. Should the writer never report on them, they are handed
   * out again once the lease is over.
   */
  readonly leaseNotificationsUntil?: Date;
  /**
   * Kinds of this user's notifications that this append makes useless: the codes they carry no
   * longer work after it (replaced by a new one, redeemed, or dropped with a changed password or
   * address). Every such notification still pending (leased or not; not the append's own) becomes
   * dead in the same write, as after its last failed attempt: `state` "dead", code and link
   * erased, `failedAt` the time of the append's first event, `lastError` "its code no longer
   * works", `attempts` unchanged. So a mail that failed once is never sent after its successor, or
   * after its code was used, with a code that no longer works. Only in an append to an existing user.
   */
  readonly withdrawnNotificationKinds?: readonly string[];
  /** The user as it is after these events, for `queryUsers`: it replaces the user's listing. */
  readonly listing: UserListing;
}

/** Who holds a claim, as `findClaimHolders` answers: the user, with its events as `loadEvents` gives them. */
export interface ClaimHolder {
  readonly claim: UniqueClaim;
  readonly userId: string;
  readonly events: readonly StoredEvent[];
}

/**
 * Why an append was not written. `claim-held`: one of the claims it takes is held already (by
 * another user, by the appending user itself, or, for a new user, by the stream of the same id: a
 * new user's claims, its `user_id` claim among them, are checked before its stream), or the append
 * repeats one. Name the first held claim in the append's order (a held one before a repeated
 * one). Whether an append may take again a claim it gives up in the same write is not fixed: the
 * memory store allows it, the SQL stores answer `claim-held`; the library never asks it.
 * `sequence-conflict`: the stream moved on since the decision (a lost race), or a new user's
 * stream exists already and the append takes no claim it holds. `user-not-found`: an append to an
 * existing user whose stream does not exist. `notification-id-taken`: checked after all of those,
 * a notification of the append has the id of a stored one, or of another in the same append (the
 * id generator gave an id twice); name the first in the append's order. The library draws new ids
 * and decides again, as for a generated user id that is taken. A store that cannot tell rejects
 * instead, and the call answers 13.
 */
export type AppendRefusal =
  | { readonly ok: false; readonly reason: "claim-held"; readonly conflict: UniqueClaim }
  | { readonly ok: false; readonly reason: "sequence-conflict"; readonly actualSequence: number }
  | { readonly ok: false; readonly reason: "user-not-found" }
  | { readonly ok: false; readonly reason: "notification-id-taken"; readonly notificationId: string };

/**
 * A written append. `leased`: the notifications it wrote already leased to the writer (when it
 * asked with `leaseNotificationsUntil`, in writing order, no attempts yet); absent when the store
 * wrote them unleased, and the writer then leases them through the outbox.
 */
export type AppendOutcome = { readonly ok: true; readonly leased?: readonly PendingNotification[] } | AppendRefusal;

/**
 * Users as event streams, with the uniqueness claims they hold. A refusal is an outcome, never a
 * rejection; methods reject only on failure (`StorageUnavailableError` when unreachable).
 *
 * Order of the checks in `append`: for an existing user (`expectedSequence > 0`), a missing stream,
 * then a moved sequence, then the claims; for a new user, the claims first (its `user_id` claim is
 * what says the user exists), then the stream; for both, the notifications' ids last.
 */
export interface UserLog {
  /** The subset of `claims` that somebody already holds, in the order asked. */
  findHeldClaims(claims: readonly UniqueClaim[]): Promise<readonly UniqueClaim[]>;
  /** Writes the append's events, claims (taken and released), notifications and listing atomically, or nothing. */
  append(append: UserAppend): Promise<AppendOutcome>;
  /**
   * Optional batch of new users (each `expectedSequence` 0), for bulk import: each append atomic on
   * its own, answered as `append` would answer them one after another in order (so of two appends
   * holding one claim the first wins). One outcome per append, in order; `leased` names the
   * notifications it wrote leased to the writer, as `append` does, and a store may write a batch's
   * notifications unleased instead. Rejects on failure, and then writes none of the batch.
   */
  appendNewUsers?(appends: readonly UserAppend[]): Promise<readonly AppendOutcome[]>;
  /** One user's events in sequence order; empty when the user does not exist. */
  loadEvents(userId: string): Promise<readonly StoredEvent[]>;
  /** The id of the user holding `claim` (how a login name finds its user), or undefined when it is free. */
  findClaimHolder(claim: UniqueClaim): Promise<string | undefined>;
  /**
   * Optional, for bulk import: `findClaimHolder` and then `loadEvents` for many claims at once. One
   * entry per claim asked that somebody holds (its `claim` as asked), in any order; claims nobody
   * holds are left out. Without it an import that meets stored users asks one claim at a time.
   */
  findClaimHolders?(claims: readonly UniqueClaim[]): Promise<readonly ClaimHolder[]>;
  /**
   * One page of the users `query.filter` finds, in the query's order, with how many it finds in
   * all. Reads the listings appends wrote, so it sees every append that has been answered.
   */
  queryUsers(query: UserQuery): Promise<UserPage>;
}
