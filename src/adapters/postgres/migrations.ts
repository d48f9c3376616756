import type { SqlSession } from "./sql-database.js";
import { DELIVERY_OF_WITHDRAWN_SQL, DELIVERY_REPORTS_BY_ID_SQL, DELIVERY_REPORTS_SQL } from "./delivery-reports-migration.js";
import { foldListingNames, LISTING_NAMES_SQL } from "./listing-names-migration.js";
import { backfillListings, LISTINGS_SQL } from "./listings-migration.js";
import { recomputeUsernameClaimKeys, USERNAME_KEYS_SQL, type UsernamesFoldedTogether } from "./username-claim-keys.js";

/**
 * The schema, as versioned plain SQL. `migrate()` applies the versions a database lacks; the build
 * also writes each one to `dist/sql/<version>_<name>.sql` for hosts that run their own migration
 * tool. Released versions are never edited: a change is a new version.
 *
 * Tables carry a `human_users_` prefix so they can share a schema with the host's own; to keep them
 * apart, point the connection's `search_path` at a schema of their own.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  /** A step PostgreSQL cannot do in SQL, run after `sql` in the same transaction. */
  readonly run?: (tx: SqlSession) => Promise<MigrationFindings>;
}

/** What a step in code found that a person should look at; `migrate()` reports it. */
export interface MigrationFindings {
  readonly foldedTogether?: readonly UsernamesFoldedTogether[];
}

const initial = `
CREATE TABLE human_users_organizations (
  id text PRIMARY KEY,
  policy jsonb,
  -- The domains as the lookups answer them ([{domain, verified}], in order); the table below indexes them.
  domains jsonb NOT NULL DEFAULT '[]'
);

CREATE TABLE human_users_organization_domains (
  org_id text NOT NULL REFERENCES human_users_organizations (id) ON DELETE CASCADE,
  position integer NOT NULL,
  domain text NOT NULL,
  verified boolean NOT NULL,
  PRIMARY KEY (org_id, position)
);
CREATE UNIQUE INDEX human_users_organization_domains_name ON human_users_organization_domains (org_id, lower(domain));
-- A verified domain belongs to one organization, so the lookup by domain has one answer.
CREATE UNIQUE INDEX human_users_verified_domains ON human_users_organization_domains (lower(domain)) WHERE verified;

CREATE TABLE human_users_identity_providers (
  id text PRIMARY KEY,
  -- NULL: configured for the whole instance.
  org_id text REFERENCES human_users_organizations (id) ON DELETE CASCADE
);

CREATE TABLE human_users_events (
  position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  aggregate_id text NOT NULL,
  sequence integer NOT NULL,
  type text NOT NULL,
  org_id text NOT NULL,
  created_at timestamptz NOT NULL,
  payload jsonb NOT NULL,
  CONSTRAINT human_users_events_user_sequence UNIQUE (aggregate_id, sequence)
);

-- Keys arrive normalized by the library and are compared byte for byte (collation "C"), whatever
-- the database's default collation.
CREATE TABLE human_users_claims (
  kind text NOT NULL,
  scope text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  user_id text NOT NULL,
  position bigint GENERATED ALWAYS AS IDENTITY,
  CONSTRAINT human_users_claims_unique PRIMARY KEY (kind, scope, key)
);

CREATE TABLE human_users_outbox (
  position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  kind text NOT NULL,
  user_id text NOT NULL,
  org_id text NOT NULL,
  recipient text NOT NULL,
  -- The plain code and link live only until delivery (or death), then they are set to ''.
  code text NOT NULL,
  link text NOT NULL,
  locale text NOT NULL,
  display_name text NOT NULL,
  username text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead')),
  attempts integer NOT NULL DEFAULT 0,
  leased_until timestamptz,
  retry_at timestamptz,
  delivered_at timestamptz,
  failed_at timestamptz,
  last_error text
);
-- Workers scan only what may still be sent.
CREATE INDEX human_users_outbox_pending ON human_users_outbox (position) WHERE state = 'pending';

-- Aborts the statement that calls it, and so its implicit transaction: a user write whose claims
-- are not all free writes nothing. The library reads SQLSTATE HU409 as "a claim is held".
CREATE FUNCTION human_users_claim_held() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'human-users: a claim of this write is already held' USING ERRCODE = 'HU409';
END
$$;
`;

// Every passkey credential verified before registrations took a claim (0.2.0) gets the claim a
// registration takes now, so that it cannot be registered to another user. A credential 0.2.0 let
// two users register stays with the first registration: both keep signing in.
const PASSKEY_CLAIMS_SQL = `
INSERT INTO human_users_claims (kind, scope, key, user_id)
SELECT 'passkey', '', e.payload->>'keyId', e.aggregate_id
FROM human_users_events e
WHERE e.type = 'user.human.passwordless.token.verified' AND coalesce(e.payload->>'keyId', '') <> ''
ORDER BY e.position
ON CONFLICT DO NOTHING;
`;

/** The schema's migrations in order, as `migrate` applies them (also shipped as SQL files in `dist/sql`). */
export const migrations: readonly Migration[] = [
  { version: 1, name: "initial", sql: initial },
  {
    version: 2,
    name: "username_case_folding",
    sql: USERNAME_KEYS_SQL,
    run: async (tx) => ({ foldedTogether: await recomputeUsernameClaimKeys(tx) }),
  },
  {
    version: 3,
    name: "user_listings",
    sql: LISTINGS_SQL,
    run: async (tx) => {
      await backfillListings(tx);
      return {};
    },
  },
  { version: 4, name: "delivery_reports", sql: DELIVERY_REPORTS_SQL },
  { version: 5, name: "passkey_claims", sql: PASSKEY_CLAIMS_SQL },
  { version: 6, name: "delivery_reports_by_id", sql: DELIVERY_REPORTS_BY_ID_SQL },
  {
    version: 7,
    name: "listing_names_folded",
    sql: LISTING_NAMES_SQL,
    run: async (tx) => {
      await foldListingNames(tx);
      return {};
    },
  },
  { version: 8, name: "delivery_of_withdrawn", sql: DELIVERY_OF_WITHDRAWN_SQL },
];

/** Where `migrate()` records the versions it applied; the shipped files record theirs too. */
export const SCHEMA_MIGRATIONS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS human_users_schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * How a shipped file records a migration with a step in code (which plain SQL cannot run): so
 * marked, `migrate()` runs that step when it takes the database over, then records the name.
 */
export function sqlOnlyName(migration: Migration): string {
  return `${migration.name} (SQL only: migrate() runs its code step)`;
}

/**
 * A migration as the shipped file holds it: its SQL, then its version recorded as `migrate()`
 * records it (marked SQL-only when it has a code step), so that `migrate()` (and the import
 * command, which runs it) can take over a database a host's own tool set up, instead of failing on
 * tables that exist already. A name and a version are digits and lower-case words: nothing to quote.
 */
export function migrationFileText(migration: Migration): string {
  const recorded = migration.run === undefined ? migration.name : sqlOnlyName(migration);
  return `${migration.sql.trim()}

-- Recorded as migrate() records it, so that migrate() can take over from another migration tool.
${SCHEMA_MIGRATIONS_TABLE_SQL};
INSERT INTO human_users_schema_migrations (version, name) VALUES (${migration.version}, '${recorded}') ON CONFLICT (version) DO NOTHING;
`;
}

/** The file name a migration is shipped under, e.g. `0001_initial.sql`. */
export function migrationFileName(migration: Migration): string {
  return `${String(migration.version).padStart(4, "0")}_${migration.name}.sql`;
}
