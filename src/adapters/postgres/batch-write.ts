import { claimKey } from "../../core/claims.js";
import type { AppendOutcome, UniqueClaim, UserAppend } from "../../ports/storage.js";
import type { SqlTransaction } from "./sql-database.js";
import { LISTING_COLUMNS, LISTING_RECORD, listingValues } from "./listing-sql.js";
import { claimOrder } from "./statements.js";

/**
 * Many users' writes as one statement, each write atomic on its own. $1 the round's claims, each
 * tagged with its write's user id (`writer`), $2 its events, $3 its notifications, $4 its listings;
 * each of these three belongs to the user its `aggregateId` or `userId` names (checked by
 * `ownWrites`), so it needs no tag: one `JSON.stringify` of the objects as they are, no copy per
 * row. As jsonb, so that payloads are parsed once and the claims document is read twice without
 * parsing it again. Claims are inserted in the global order every writer uses. A write's events,
 * notifications and listing are inserted unless it lost one of its claims.
 * Answers only the writes that lost a claim: each with every claim it won (a row with null claim
 * columns when it won none), so the caller can tell who lost and give back what the losers had
 * won. A write it does not name won all its claims: usually the answer is empty, where answering
 * every won claim cost a row each to send and to parse (about a tenth of the statement's time).
 */
const roundSql = `
WITH claimed AS (
  INSERT INTO human_users_claims (kind, scope, key, user_id)
  SELECT c.kind, c.scope, c.key, c.writer FROM jsonb_to_recordset($1::jsonb) AS c(kind text, scope text, key text, writer text)
  ${claimOrder}
  ON CONFLICT DO NOTHING
  RETURNING kind, scope, key, user_id
), incomplete AS (
  SELECT wanted.writer FROM (SELECT c.writer, count(*) AS claims FROM jsonb_to_recordset($1::jsonb) AS c(writer text) GROUP BY c.writer) AS wanted
  LEFT JOIN (SELECT user_id, count(*) AS claims FROM claimed GROUP BY user_id) AS won ON won.user_id = wanted.writer
  WHERE coalesce(won.claims, 0) < wanted.claims
), events AS (
  INSERT INTO human_users_events (aggregate_id, sequence, type, org_id, created_at, payload)
  SELECT e."aggregateId", e.sequence, e.type, e."orgId", e."createdAt", e.payload
  FROM jsonb_to_recordset($2::jsonb) AS e("aggregateId" text, sequence integer, type text, "orgId" text, "createdAt" timestamptz, payload jsonb)
  WHERE e."aggregateId" NOT IN (SELECT writer FROM incomplete)
), notifications AS (
  INSERT INTO human_users_outbox (id, kind, user_id, org_id, recipient, code, link, locale, display_name, username, created_at, expires_at)
  SELECT n.id, n.kind, n."userId", n."orgId", n.recipient, n.code, n.link, n.locale, n."displayName", n.username, n."createdAt", n."expiresAt"
  FROM jsonb_to_recordset($3::jsonb) AS n(id text, kind text, "userId" text, "orgId" text, recipient text, code text,
    link text, locale text, "displayName" text, username text, "createdAt" timestamptz, "expiresAt" timestamptz)
  WHERE n."userId" NOT IN (SELECT writer FROM incomplete)
), listed AS (
  INSERT INTO human_users_listings (${LISTING_COLUMNS})
  SELECT ${listingValues("l")} FROM jsonb_to_recordset($4::jsonb) AS l(${LISTING_RECORD})
  WHERE l."userId" NOT IN (SELECT writer FROM incomplete)
)
SELECT c.kind, c.scope, c.key, i.writer FROM incomplete AS i LEFT JOIN claimed AS c ON c.user_id = i.writer`;

/** Gives back claims that refused writes had won. $1 claims tagged with their writer. */
const giveBackSql = `
DELETE FROM human_users_claims h
USING json_to_recordset($1::json) AS c(kind text, scope text, key text, writer text)
WHERE h.kind = c.kind AND h.scope = c.scope AND h.key = c.key AND h.user_id = c.writer`;

interface WonClaim {
  readonly kind: UniqueClaim["kind"];
  readonly scope: string;
  readonly key: string;
  readonly writer: string;
}

/**
 * Many writes' claims (each tagged with its writer), events, notifications and listings, as one JSON
 * array each. A notification its write leases to the writer carries the lease's end (`leasedUntil`).
 */
export function tagged(writes: readonly UserAppend[]): { claims: string; events: string; notifications: string; listings: string } {
  const claims: { kind: string; scope: string; key: string; writer: string }[] = [];
  const events: UserAppend["events"][number][] = [];
  const notifications: (UserAppend["notifications"][number] & { readonly leasedUntil?: string })[] = [];
  const listings: UserAppend["listing"][] = [];
  for (const write of writes) {
    for (const { kind, scope, key } of write.claims) claims.push({ kind, scope, key, writer: write.userId });
    for (const event of write.events) events.push(event);
    const leasedUntil = write.leaseNotificationsUntil?.toISOString();
    for (const notification of write.notifications) notifications.push(leasedUntil === undefined ? notification : { ...notification, leasedUntil });
    listings.push(write.listing);
  }
  return { claims: JSON.stringify(claims), events: JSON.stringify(events), notifications: JSON.stringify(notifications), listings: JSON.stringify(listings) };
}

/**
 * Whether every event, notification and listing of each write is its own user's: the statement
 * keeps or drops them by the user they name, so a write carrying another user's would be wrong.
 */
export function ownWrites(writes: readonly UserAppend[]): boolean {
  return writes.every(
    (write) =>
      write.listing.userId === write.userId &&
      write.events.every((event) => event.aggregateId === write.userId) &&
      write.notifications.every((notification) => notification.userId === write.userId),
  );
}

/**
 * The writes that can go in one round, in input order: each shares no claim with an earlier write
 * still undecided, so whoever wins a claim in the round is the first in input order to want it.
 * The others wait for the next round, when the writes before them are decided.
 */
function splitRound<T extends { readonly write: UserAppend }>(pending: readonly T[]): { round: T[]; later: T[] } {
  const wanted = new Set<string>();
  const round: T[] = [];
  const later: T[] = [];
  for (const item of pending) {
    const keys = item.write.claims.map(claimKey);
    (keys.some((key) => wanted.has(key)) ? later : round).push(item);
    for (const key of keys) wanted.add(key);
  }
  return { round, later };
}

/** The first of the write's claims (in its order) that it did not win, each won claim counting once. */
function firstNotWon(write: UserAppend, won: readonly WonClaim[]): UniqueClaim | undefined {
  // Won rows are distinct claims of this write: as many as it asked for means it won them all.
  if (won.length === write.claims.length) return undefined;
  const left = new Map<string, number>();
  for (const claim of won) left.set(claimKey(claim), (left.get(claimKey(claim)) ?? 0) + 1);
  for (const claim of write.claims) {
    const count = left.get(claimKey(claim)) ?? 0;
    if (count === 0) return { kind: claim.kind, scope: claim.scope, key: claim.key };
    left.set(claimKey(claim), count - 1);
  }
  return undefined;
}

/** The claims each losing write won, by writer: every writer named, with none when its row has no claim. */
function wonByLosers(rows: readonly unknown[]): Map<string, WonClaim[]> {
  const byWriter = new Map<string, WonClaim[]>();
  for (const row of rows) {
    const { kind, scope, key, writer } = row as Record<string, string | null>;
    const name = writer ?? "";
    let mine = byWriter.get(name);
    if (mine === undefined) byWriter.set(name, (mine = []));
    if (kind !== null && kind !== undefined) mine.push({ kind: kind as UniqueClaim["kind"], scope: scope ?? "", key: key ?? "", writer: name });
  }
  return byWriter;
}

/**
 * Writes a batch inside `tx`, answering each write in order as `appendUser` would one after another.
 * Usually one statement: all claims inserted (in the global order every writer uses), then the
 * events and notifications of the writes that won all theirs. A write sharing a claim with
 * an earlier one of the batch waits for a further round; a refused write's claims are given back.
 */
export async function appendBatch(tx: SqlTransaction, writes: readonly UserAppend[]): Promise<AppendOutcome[]> {
  if (!ownWrites(writes)) throw new Error("appendNewUsers: a write carries another user's event, notification or listing");
  const outcomes: AppendOutcome[] = new Array<AppendOutcome>(writes.length);
  let pending = writes.map((write, index) => ({ write, index }));
  while (pending.length > 0) {
    const { round, later } = splitRound(pending);
    const json = tagged(round.map((item) => item.write));
    const losers = wonByLosers((await tx.query(roundSql, [json.claims, json.events, json.notifications, json.listings])).rows);
    const giveBack: WonClaim[] = [];
    for (const { write, index } of round) {
      const mine = losers.get(write.userId);
      const conflict = mine === undefined ? undefined : firstNotWon(write, mine);
      outcomes[index] = conflict === undefined ? { ok: true } : { ok: false, reason: "claim-held", conflict };
      if (conflict !== undefined && mine !== undefined) giveBack.push(...mine);
    }
    if (giveBack.length > 0) await tx.query(giveBackSql, [JSON.stringify(giveBack)]);
    pending = later;
  }
  return outcomes;
}
