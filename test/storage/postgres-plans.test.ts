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
      const plan = await genericPlan(schema, sql.appendSql, "json, json, json, text, integer, json, json, timestamptz, json", `${claims}, '[]', '[]', 'u-7', 1, ${released}, '{}', NULL, '["email.verification"]'`);
      expect(plan === undefined ? [] : readsOf(plan, "human_users_claims")).toEqual(["Index Scan on human_users_claims_unique", "Tid Scan"]);
      // The user's replaced mails are looked for among the pending ones only.
      expect(plan === undefined ? [] : readsOf(plan, "human_users_outbox")).toEqual(["Index Scan on human_users_outbox_pending"]);
    } finally {
      await schema.drop();
    }
  });


  it("a delivery report finds its notifications by id, even on a connection that prepared it while the outbox was small", async () => {
    const schema = await schemaPool(url ?? "", "plans", 1);
    await migrate(schema.pool);
    const client = await schema.pool.connect();
    const notifications = (from: number, to: number) => `
      INSERT INTO human_users_outbox (id, kind, user_id, org_id, recipient, code, link, locale, display_name, username, created_at, expires_at)
      SELECT 'n-' || i, 'email-verification', 'u-' || i, 'acme', 'a@example.com', 'CODE', '', 'en', 'Ann', 'ann', now(), now() + interval '1 hour'
      FROM generate_series(${from}, ${to}) AS i`;
    const report = (...ids: string[]) => client.query({ name: "report", text: sql.deliveredSql, values: [JSON.stringify(ids.map((id) => ({ id, at: "2026-01-01T00:00:00Z" })))] });
    try {
      // Statistics of a tiny outbox, and a prepared report used often enough to get a generic plan:
      // a plan cached now would read the table sequentially (the cheapest way for three rows).
      await client.query(notifications(1, 3));
      await client.query("ANALYZE human_users_outbox");
      for (let round = 0; round < 12; round++) await report("n-1");
      await client.query(notifications(4, 5000));
      // Within one transaction the backend's own counts are not flushed, so the difference is this report's.
      const scans = async () => {
        const { rows } = await client.query("SELECT seq_scan, idx_scan FROM pg_stat_xact_user_tables WHERE relname = 'human_users_outbox' AND schemaname = current_schema()");
        const row = rows[0] as { seq_scan: string; idx_scan: string };
        return { seqScan: Number(row.seq_scan), indexScan: Number(row.idx_scan) };
      };
      // A few reports are updated one by one, many in one UPDATE: neither may read the whole outbox.
      const many = Array.from({ length: 12 }, (_, index) => `n-${String(100 + index)}`);
      const reads: unknown[] = [];
      for (const ids of [["n-4321"], ["n-4322", "n-4323", "n-4324"], many]) {
        await client.query("BEGIN");
        const before = await scans();
        const marked = (await report(...ids)).rows;
        const after = await scans();
        await client.query("COMMIT");
        reads.push({ marked, seqScans: after.seqScan - before.seqScan, usedIndex: after.indexScan > before.indexScan });
      }
      expect(reads).toEqual([
        { marked: [{ marked: 1 }], seqScans: 0, usedIndex: true },
        { marked: [{ marked: 3 }], seqScans: 0, usedIndex: true },
        { marked: [{ marked: 12 }], seqScans: 0, usedIndex: true },
      ]);
      const states = await client.query("SELECT id, state, code FROM human_users_outbox WHERE id IN ('n-1', 'n-2', 'n-4321', 'n-4324', 'n-111', 'n-112') ORDER BY id");
      expect(states.rows).toEqual([
        { id: "n-1", state: "delivered", code: "" },
        { id: "n-111", state: "delivered", code: "" },
        { id: "n-112", state: "pending", code: "CODE" },
        { id: "n-2", state: "pending", code: "CODE" },
        { id: "n-4321", state: "delivered", code: "" },
        { id: "n-4324", state: "delivered", code: "" },
      ]);
    } finally {
      client.release();
      await schema.drop();
    }
  });
});
