import { usernameClaimKey } from "../../core/rules/username.js";
import type { SqlSession } from "./sql-database.js";

/** Existing users whose usernames are one username under the current claim key. */
export interface UsernamesFoldedTogether {
  /** "" for instance-wide usernames, else the organization whose policy scopes them. */
  readonly scope: string;
  /** The claim key they share now; the first user holds it, the others keep their old keys. */
  readonly key: string;
  /** In the order the users were created. */
  readonly userIds: readonly string[];
}

/**
 * What `migrate()` writes to `dist/sql` for this version: PostgreSQL has no Unicode case folding, so
 * the step is code, and a host running the plain SQL files must run it another way.
 */
export const USERNAME_KEYS_SQL = `
-- Version 2 recomputes the username claim keys with full Unicode case folding (NFKC_Casefold),
-- which PostgreSQL cannot do: migrate(pool) and migratePglite(db) run that step in code. Nothing
-- in the schema changes, but a host applying these files with its own tool must run the step too,
-- or usernames with letters beyond ASCII keep their old keys.
`;

interface ClaimRow {
  readonly scope: string;
  readonly key: string;
  readonly user_id: string;
  readonly position: string | number | bigint;
  readonly username: string | null;
}

interface Move {
  readonly scope: string;
  readonly oldKey: string;
  readonly newKey: string;
}

const groupOf = (scope: string, key: string): string => `${scope}\u001f${key}`;

/**
 * Recomputes every username claim key with `usernameClaimKey`, from the username of the user's
 * first event (or from the old key, which version 1 made by lower-casing the username, when that
 * event is missing). Keys of ASCII names do not change and are not read.
 *
 * Names that now fold together (`STRASSE` and `straße`) were two users and stay two users: the one
 * already holding the folded key keeps it, or else the earliest takes it, and the others keep their
 * old keys, so nobody loses their login; the result lists them, for someone to rename one of each.
 * Writers wait on a table lock meanwhile, so no new claim can take a key while it moves.
 */
export async function recomputeUsernameClaimKeys(tx: SqlSession): Promise<readonly UsernamesFoldedTogether[]> {
  await tx.query("LOCK TABLE human_users_claims IN EXCLUSIVE MODE");
  const found = await tx.query(`
    SELECT c.scope, c.key, c.user_id, c.position, e.payload->>'userName' AS username
    FROM human_users_claims c
    LEFT JOIN human_users_events e ON e.aggregate_id = c.user_id AND e.sequence = 1 AND e.type = 'user.human.added'
    WHERE c.kind = 'username' AND octet_length(c.key) <> char_length(c.key)
    ORDER BY c.position`);
  const candidates = (found.rows as ClaimRow[])
    .map((row) => ({ row, newKey: usernameClaimKey(row.username ?? row.key) }))
    .filter(({ row, newKey }) => newKey !== row.key);
  if (candidates.length === 0) return [];

  // Whoever holds a folded key already keeps it (an ASCII `STRASSE` holding `strasse`, say).
  const targets = candidates.map(({ row, newKey }) => ({ kind: "username", scope: row.scope, key: newKey }));
  const holders = await tx.query(
    `SELECT h.scope, h.key, h.user_id, h.position, NULL AS username
     FROM json_to_recordset($1::json) AS t(kind text, scope text, key text)
     JOIN human_users_claims h ON h.kind = t.kind AND h.scope = t.scope AND h.key = t.key`,
    [JSON.stringify(targets)],
  );
  const groups = new Map<string, { scope: string; key: string; members: ClaimRow[]; taken: boolean }>();
  const groupFor = (scope: string, key: string) => {
    const id = groupOf(scope, key);
    const group = groups.get(id) ?? { scope, key, members: [], taken: false };
    groups.set(id, group);
    return group;
  };
  const holding = new Set<string>();
  for (const holder of holders.rows as ClaimRow[]) {
    if (holding.has(groupOf(holder.scope, holder.key))) continue;
    holding.add(groupOf(holder.scope, holder.key));
    const group = groupFor(holder.scope, holder.key);
    group.members.push(holder);
    group.taken = true;
  }

  const moves: Move[] = [];
  for (const { row, newKey } of candidates) {
    const group = groupFor(row.scope, newKey);
    group.members.push(row);
    // A claim that holds another's folded key stays put, so no key is both freed and taken here.
    if (group.taken || holding.has(groupOf(row.scope, row.key))) continue;
    group.taken = true;
    moves.push({ scope: row.scope, oldKey: row.key, newKey });
  }
  if (moves.length > 0) {
    await tx.query(
      `UPDATE human_users_claims AS c SET key = m.new_key
       FROM json_to_recordset($1::json) AS m(scope text, old_key text, new_key text)
       WHERE c.kind = 'username' AND c.scope = m.scope AND c.key = m.old_key`,
      [JSON.stringify(moves.map((move) => ({ scope: move.scope, old_key: move.oldKey, new_key: move.newKey })))],
    );
  }

  const byPosition = (a: ClaimRow, b: ClaimRow): number => Number(a.position) - Number(b.position);
  return [...groups.values()]
    .filter((group) => group.members.length > 1)
    .map((group) => ({ group, members: [...group.members].sort(byPosition) }))
    .sort((a, b) => byPosition(a.members[0] as ClaimRow, b.members[0] as ClaimRow))
    .map(({ group, members }) => ({ scope: group.scope, key: group.key, userIds: members.map((member) => member.user_id) }));
}
