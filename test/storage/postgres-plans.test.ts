// Plans of the store's statements as a prepared statement gets them once PostgreSQL settles on a
// generic plan: a statement that touches a few rows must find them through an index, however many
// other rows the table holds.
import { describe, expect, it } from "vitest";
import { migrate } from "../../src/adapters/postgres/index.js";
import * as sql from "../../src/adapters/postgres/statements.js";
import { findPostgres, schemaPool, type SchemaPool } from "./databases.js";

const url = await findPostgres();
const needsServer = url === undefined ? " (skipped: plans are read on a PostgreSQL server; set HUMAN_USERS_PG_URL)" : "";

interface PlanNode {
  readonly "Node Type": string;
  readonly "Relation Name"?: string;
  readonly "Index Name"?: string;
  readonly Plans?: readonly PlanNode[];
}

/** Every node of `plan` that reads `table`, as "node type" or "node type on index". */
function readsOf(plan: PlanNode, table: string): string[] {
  const own = plan["Relation Name"] === table && plan["Node Type"] !== "ModifyTable" ? [`${plan["Node Type"]}${plan["Index Name"] === undefined ? "" : ` on ${plan["Index Name"]}`}`] : [];
  const indexOnly = plan["Relation Name"] === undefined && plan["Index Name"]?.startsWith(`${table}_`) === true ? [`${plan["Node Type"]} on ${plan["Index Name"]}`] : [];
  return [...own, ...indexOnly, ...(plan.Plans ?? []).flatMap((child) => readsOf(child, table))];
}

/** The generic plan of `statement` (prepared with `types`) executed with `args` (SQL literals), on a connection of `schema`. */
async function genericPlan(schema: SchemaPool, statement: string, types: string, args: string): Promise<PlanNode | undefined> {
  const client = await schema.pool.connect();
  try {
    await client.query("SET plan_cache_mode = force_generic_plan");
    await client.query(`PREPARE probed(${types}) AS ${statement}`);
    const explained = await client.query(`EXPLAIN (FORMAT JSON) EXECUTE probed(${args})`);
    return (explained.rows[0] as { "QUERY PLAN": readonly { Plan: PlanNode }[] })["QUERY PLAN"][0]?.Plan;
  } finally {
    client.release();
  }
}

function literal(value: unknown): string {
  return `'${JSON.stringify(value).replaceAll("'", "''")}'`;
}

describe.skipIf(url === undefined)(`generic plans (PostgreSQL)${needsServer}`, () => {
  it("an append that gives up a claim finds it by primary key, not by reading every claim", async () => {
    const schema = await schemaPool(url ?? "", "plans", 1);
    try {
      await migrate(schema.pool);
      await schema.pool.query(`INSERT INTO human_users_claims (kind, scope, key, user_id) SELECT 'username', '', 'name-' || i, 'u-' || i FROM generate_series(1, 5000) AS i`);
      const claims = literal([{ kind: "username", scope: "", key: "new-name" }]);
      const released = literal([{ kind: "username", scope: "", key: "name-7" }]);
      const plan = await genericPlan(schema, sql.appendSql, "json, json, json, text, integer, json, json, timestamptz", `${claims}, '[]', '[]', 'u-7', 1, ${released}, '{}', NULL`);
      expect(plan === undefined ? [] : readsOf(plan, "human_users_claims")).toEqual(["Index Scan on human_users_claims_unique", "Tid Scan"]);
    } finally {
      await schema.drop();
    }
  });


  it("a delivery report finds its notifications by id, not by hashing every pending one", async () => {
    const schema = await schemaPool(url ?? "", "plans", 1);
    try {
      await migrate(schema.pool);
      await schema.pool.query(`
        INSERT INTO human_users_outbox (id, kind, user_id, org_id, recipient, code, link, locale, display_name, username, created_at, expires_at)
        SELECT 'n-' || i, 'email-verification', 'u-' || i, 'acme', 'a@example.com', 'CODE', '', 'en', 'Ann', 'ann', now(), now() + interval '1 hour'
        FROM generate_series(1, 5000) AS i`);
      const plan = await genericPlan(schema, sql.deliveredSql, "json", `'[{"id": "n-7", "at": "2026-01-01T00:00:00Z"}]'`);
      expect(plan === undefined ? [] : readsOf(plan, "human_users_outbox").filter((read) => !read.startsWith("Bitmap Heap Scan"))).toEqual([
        expect.stringMatching(/^(Index Scan|Bitmap Index Scan) on human_users_outbox_id_key$/),
      ]);
    } finally {
      await schema.drop();
    }
  });
});
