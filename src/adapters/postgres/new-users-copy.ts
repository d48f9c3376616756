// New users' writes as rows for `COPY ... FROM STDIN`: what an import's batch writes when the
// driver can stream COPY (see sql-database.ts). The same rows as the group statement's, without
// JSON for the database to parse and with COPY's cheaper insertion: measured on the same rows, half
// the database's CPU per user (bench/README.md).
import type { UserAppend } from "../../ports/storage.js";
import { copyRow, copyRows } from "./copy-text.js";
import { LISTING_COLUMNS, listingParams } from "./listing-sql.js";

/** One `COPY ... FROM STDIN` and its rows in COPY's text format. */
export interface CopyIn {
  readonly statement: string;
  readonly rows: string;
}

/**
 * Code point order, which is the byte order of UTF-8 and so the order of `COLLATE "C"`. JavaScript's
 * `<` compares UTF-16 units, which puts a surrogate (U+D800–U+DFFF) below U+E000–U+FFFF; shifting
 * the two ranges past each other mends that.
 */
export function compareCodePoints(left: string, right: string): number {
  const shared = Math.min(left.length, right.length);
  for (let index = 0; index < shared; index++) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a !== b) return inCodePointOrder(a) - inCodePointOrder(b);
  }
  return left.length - right.length;
}

function inCodePointOrder(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

export const copyClaimsSql = "COPY human_users_claims (kind, scope, key, user_id) FROM STDIN";
export const copyEventsSql = "COPY human_users_events (aggregate_id, sequence, type, org_id, created_at, payload) FROM STDIN";
export const copyListingsSql = `COPY human_users_listings (${LISTING_COLUMNS}) FROM STDIN`;
export const copyNotificationsSql =
  "COPY human_users_outbox (id, kind, user_id, org_id, recipient, code, link, locale, display_name, username, created_at, expires_at, leased_until) FROM STDIN";

interface TaggedClaim {
  readonly kind: string;
  readonly scope: string;
  readonly key: string;
  readonly writer: string;
}

function compareClaims(left: TaggedClaim, right: TaggedClaim): number {
  return compareCodePoints(left.kind, right.kind) || compareCodePoints(left.scope, right.scope) || compareCodePoints(left.key, right.key);
}

/**
 * The COPYs that write `appends` (new users only), to run in order in one transaction. Claims go
 * first and in the global order every writer takes them in (statements.ts, `claimOrder`), so that
 * a batch and a concurrent writer wanting the same name queue instead of deadlocking; a held claim
 * fails the whole transaction on the claims' primary key, as the group statement does.
 */
export function newUsersCopies(appends: readonly UserAppend[]): CopyIn[] {
  const claims: TaggedClaim[] = [];
  const events: string[] = [];
  const listings: string[] = [];
  const notifications: string[] = [];
  for (const append of appends) {
    for (const { kind, scope, key } of append.claims) claims.push({ kind, scope, key, writer: append.userId });
    for (const event of append.events) events.push(copyRow([event.aggregateId, event.sequence, event.type, event.orgId, event.createdAt, JSON.stringify(event.payload)]));
    listings.push(copyRow(listingParams(append.listing)));
    const leasedUntil = append.leaseNotificationsUntil?.toISOString() ?? null;
    for (const n of append.notifications) {
      notifications.push(copyRow([n.id, n.kind, n.userId, n.orgId, n.recipient, n.code, n.link, n.locale, n.displayName, n.username, n.createdAt, n.expiresAt, leasedUntil]));
    }
  }
  claims.sort(compareClaims);
  const copies: CopyIn[] = [
    { statement: copyClaimsSql, rows: copyRows(claims.map((claim) => copyRow([claim.kind, claim.scope, claim.key, claim.writer]))) },
    { statement: copyEventsSql, rows: copyRows(events) },
    { statement: copyListingsSql, rows: copyRows(listings) },
    { statement: copyNotificationsSql, rows: copyRows(notifications) },
  ];
  return copies.filter((copy) => copy.rows !== "");
}
