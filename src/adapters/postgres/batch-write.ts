import { claimKey } from "../../core/claims.js";
import type { AppendOutcome, UniqueClaim, UserAppend } from "../../ports/storage.js";
import type { SqlTransaction } from "./sql-database.js";
import { claimOrStreamRefusal, notificationRefusal, storedNotificationIds, takenNotificationId } from "./append-refusal.js";
import { LISTING_ARRAY_COLUMNS, LISTING_COLUMNS, listingValues } from "./listing-sql.js";
import { CLAIM_PARAMS, claimRows, EVENT_PARAMS, eventRows, listingRows, newUserParams, NOTIFICATION_PARAMS, notificationRows } from "./new-user-rows.js";
import { insertEventRows, insertNotificationRows } from "./insert-rows.js";
import { claimOrder } from "./statements.js";

const FIRST_EVENT = 1 + CLAIM_PARAMS;
const FIRST_NOTIFICATION = FIRST_EVENT + EVENT_PARAMS;
const FIRST_LISTING = FIRST_NOTIFICATION + NOTIFICATION_PARAMS;
/** Where among the listings' parameters their user ids are: each write's user id. */
const LISTING_USER_ID = LISTING_ARRAY_COLUMNS.findIndex(({ member }) => member === "userId");

/** The round's parameters, in the order `roundSql` numbers them. */
function roundParams(writes: readonly UserAppend[]): readonly string[] {
  const params = newUserParams(writes);
  return [...params.claims, ...params.events, ...params.notifications, ...params.listings];
}

/**
 * Many users' writes as one statement, each write atomic on its own. The rows travel as one array
 * per column (see column-arrays.ts): the round's claims, each tagged with its write's user id
 * (`writer`), from $1; its events from $5, their payloads as one JSON array zipped in by `ROWS
 * FROM`; its notifications, then its listings, one parameter per column after those. Each event,
 * notification and listing belongs to the user its `aggregateId` or `userId` names (checked by
 * `ownWrites`), so it needs no tag. Claims are inserted in the global order every writer uses. A
 * write's events, notifications and listing are inserted unless it lost one of its claims.
 * Answers only the writes that lost a claim: each with every claim it won (a row with null claim
 * columns when it won none), so the caller can tell who lost and give back what the losers had
 * won. A write it does not name won all its claims: usually the answer is empty, where answering
 * every won claim cost a row each to send and to parse (about a tenth of the statement's time).
 */
const roundSql = `
WITH claimed AS (
  INSERT INTO human_users_claims (kind, scope, key, user_id)
  SELECT c.kind, c.scope, c.key, c.writer FROM ${claimRows(1)}
  ${claimOrder}
  ON CONFLICT DO NOTHING
  RETURNING kind, scope, key, user_id
), incomplete AS (
  SELECT wanted.writer FROM (SELECT c.writer, count(*) AS claims FROM ${claimRows(1)} GROUP BY c.writer) AS wanted
  LEFT JOIN (SELECT user_id, count(*) AS claims FROM claimed GROUP BY user_id) AS won ON won.user_id = wanted.writer
  WHERE coalesce(won.claims, 0) < wanted.claims
), existing AS (
  SELECT e.aggregate_id AS writer, max(e.sequence) AS last FROM human_users_events e
  WHERE e.aggregate_id = ANY ($${FIRST_LISTING + LISTING_USER_ID}::text[])
  GROUP BY e.aggregate_id
), refused AS (
  SELECT writer FROM incomplete UNION ALL SELECT writer FROM existing
), events AS (
  ${insertEventRows(eventRows(FIRST_EVENT))}
  WHERE e."aggregateId" NOT IN (SELECT writer FROM refused)
), notifications AS (
  ${insertNotificationRows(notificationRows(FIRST_NOTIFICATION), "NULL")}
  WHERE n."userId" NOT IN (SELECT writer FROM refused)
), listed AS (
  INSERT INTO human_users_listings (${LISTING_COLUMNS})
  SELECT ${listingValues("l")} FROM ${listingRows(FIRST_LISTING)}
  WHERE l."userId" NOT IN (SELECT writer FROM refused)
)
SELECT c.kind, c.scope, c.key, i.writer, NULL::integer AS last FROM incomplete AS i LEFT JOIN claimed AS c ON c.user_id = i.writer
UNION ALL
SELECT c.kind, c.scope, c.key, x.writer, x.last FROM existing AS x LEFT JOIN claimed AS c ON c.user_id = x.writer
WHERE x.writer NOT IN (SELECT writer FROM incomplete)`;

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
    // A user id counts as a claim here too: of two writes of one new stream, the second must see
    // the first's. So does a notification id: the second of two writes with one sees it stored.
    const keys = [...item.write.claims.map(claimKey), `stream ${item.write.userId}`, ...item.write.notifications.map((notification) => `notification ${notification.id}`)];
    (keys.some((key) => wanted.has(key)) ? later : round).push(item);
    for (const key of keys) wanted.add(key);
  }
  return { round, later };
}

/**
 * The claim to name for a write that did not win them all, as `append` names it: the first (in
 * its order) that another user holds, else the first it repeats. Won rows are distinct claims of
 * this write: as many as it asked for means it won them all.
 */
function firstNotWon(write: UserAppend, won: readonly WonClaim[]): UniqueClaim | undefined {
  if (won.length === write.claims.length) return undefined;
  const wonKeys = new Set(won.map(claimKey));
  const seen = new Set<string>();
  let repeated: UniqueClaim | undefined;
  for (const claim of write.claims) {
    const key = claimKey(claim);
    if (seen.has(key)) repeated ??= claim;
    else if (!wonKeys.has(key)) return { kind: claim.kind, scope: claim.scope, key: claim.key };
    seen.add(key);
  }
  return repeated === undefined ? undefined : { kind: repeated.kind, scope: repeated.scope, key: repeated.key };
}

/** A write the round refused: the claims it won (to give back), and its stream's last sequence when the stream exists already. */
interface Refused {
  readonly won: WonClaim[];
  last: number | undefined;
}

/** The writes the round refused, by writer: every writer named, with no claim when its row has none. */
function refusedWrites(rows: readonly unknown[]): Map<string, Refused> {
  const byWriter = new Map<string, Refused>();
  for (const row of rows) {
    const { kind, scope, key, writer, last } = row as Record<string, string | number | null>;
    const name = String(writer ?? "");
    let mine = byWriter.get(name);
    if (mine === undefined) byWriter.set(name, (mine = { won: [], last: undefined }));
    if (last !== null && last !== undefined) mine.last = Number(last);
    if (kind !== null && kind !== undefined) mine.won.push({ kind: String(kind) as UniqueClaim["kind"], scope: String(scope ?? ""), key: String(key ?? ""), writer: name });
  }
  return byWriter;
}

/** What the round answers a write: refused for a claim another holds first, then for a stream that exists already. */
function outcomeOf(write: UserAppend, refused: Refused | undefined): AppendOutcome {
  if (refused === undefined) return { ok: true };
  const conflict = firstNotWon(write, refused.won);
  if (conflict !== undefined) return { ok: false, reason: "claim-held", conflict };
  return { ok: false, reason: "sequence-conflict", actualSequence: refused.last ?? 0 };
}

/**
 * Writes a batch inside `tx`, answering each write in order as `append` would one after another.
 * Usually one statement: all claims inserted (in the global order every writer uses), then the
 * events, notifications and listings of the writes that won all theirs and whose stream does not
 * exist yet. A write sharing a claim or a user id with an earlier one of the batch waits for a
 * further round; a refused write's claims are given back.
 */
export async function appendBatch(tx: SqlTransaction, writes: readonly UserAppend[]): Promise<AppendOutcome[]> {
  if (!ownWrites(writes)) throw new Error("appendNewUsers: a write carries another user's event, notification or listing");
  const outcomes: AppendOutcome[] = new Array<AppendOutcome>(writes.length);
  let pending = writes.map((write, index) => ({ write, index }));
  while (pending.length > 0) {
    const { round: candidates, later } = splitRound(pending);
    // A write with a notification id already taken would fail the whole statement: it is left out
    // and answered on its own, in the port's order, once the writes before it are decided.
    const taken = await storedNotificationIds(tx, candidates.map((item) => item.write));
    const round = candidates.filter((item) => takenNotificationId(item.write, taken) === undefined);
    if (round.length > 0) {
      const refused = refusedWrites((await tx.query(roundSql, roundParams(round.map((item) => item.write)))).rows);
      const giveBack: WonClaim[] = [];
      for (const { write, index } of round) {
        const mine = refused.get(write.userId);
        outcomes[index] = outcomeOf(write, mine);
        if (mine !== undefined) giveBack.push(...mine.won);
      }
      if (giveBack.length > 0) await tx.query(giveBackSql, [JSON.stringify(giveBack)]);
    }
    for (const { write, index } of candidates) if (outcomes[index] === undefined) outcomes[index] = await refusalWithTakenId(tx, write, taken);
    pending = later;
  }
  return outcomes;
}

/** Why a new user's write with a taken notification id is refused, in the port's order: its claims, its stream, then the id. */
async function refusalWithTakenId(tx: SqlTransaction, write: UserAppend, stored: ReadonlySet<string>): Promise<AppendOutcome> {
  const refusal = (await claimOrStreamRefusal(tx, write)) ?? (await notificationRefusal(tx, write, stored));
  if (refusal === undefined) throw new Error("appendNewUsers: a write left out for a taken notification id has none");
  return refusal;
}
