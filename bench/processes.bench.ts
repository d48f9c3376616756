// createHumanUser of new users per second on PostgreSQL from one Node process against two processes
// sharing the database, as production runs several copies of an application. Each process keeps
// 8 calls in flight on a pool of its own; "1 process, 16 in flight" shows how much of the gain is
// only the doubled concurrency. Rounds are interleaved, one process is the baseline.
// Run with `npm run bench -- processes`; needs HUMAN_USERS_PG_URL (or 127.0.0.1:5432).
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { migrate, postgresStore } from "../src/adapters/postgres/index.js";
import { findPostgres, schemaPool } from "../test/storage/databases.js";
import { childGroup, type Child } from "../test/storage/support/child-processes.js";
import { figuresTable, measuredRounds, median, type CaseFigures } from "./support/rounds.js";

const ROUNDS = 5;
const ROUND_MS = 3_000;
const IN_FLIGHT = 8;
const SCRIPT = fileURLToPath(new URL("./support/create-users-process.ts", import.meta.url));

/** How busy each case kept the CPU of its Node processes, round by round (1 = one core all the time). */
const busy = new Map<string, number[]>();

/** Every process creates users for the same stretch of time; the figure is their calls per second together. */
async function together(name: string, processes: readonly Child[], inFlight: number): Promise<number> {
  const answers = processes.map((child) => child.next("ran"));
  for (const child of processes) child.send({ type: "run", durationMs: ROUND_MS, inFlight });
  const answered = await Promise.all(answers);
  busy.set(name, [...(busy.get(name) ?? []), answered.reduce((sum, answer) => sum + (answer["busy"] as number), 0)]);
  return answered.reduce((sum, answer) => sum + (answer["perSecond"] as number), 0);
}

/** Speed-up over the baseline: the inverse of the cost ratio, its extremes swapped. */
function speedUp(figure: CaseFigures): string {
  const { min, max } = figure.ratio;
  return `${(1 / figure.ratio.median).toFixed(2)}× (${(1 / max).toFixed(2)}–${(1 / min).toFixed(2)})`;
}

const url = await findPostgres();
if (url === undefined) {
  console.log("processes: skipped, no PostgreSQL server answers (set HUMAN_USERS_PG_URL); PGlite is one process");
} else {
  const schema = await schemaPool(url, "bench_procs");
  const children = childGroup();
  try {
    await migrate(schema.pool);
    await postgresStore({ pool: schema.pool }).upsertOrganization({ id: "acme", domains: [] });
    const processes = ["first", "second"].map((label) => children.start(SCRIPT, { PG_URL: url, SCHEMA: schema.schema, LABEL: label }));
    await Promise.all(processes.map((child) => child.next("ready")));
    const [first] = processes as [Child, Child];

    const runs = [
      { name: `1 process, ${IN_FLIGHT} in flight`, processes: [first], inFlight: IN_FLIGHT },
      { name: `2 processes, ${IN_FLIGHT} in flight each`, processes, inFlight: IN_FLIGHT },
      { name: `1 process, ${2 * IN_FLIGHT} in flight`, processes: [first], inFlight: 2 * IN_FLIGHT },
    ];
    const cases = runs.map(({ name, processes: running, inFlight }) => ({ name, measure: () => together(name, running, inFlight) }));
    for (const warmUp of cases) await warmUp.measure();
    busy.clear();
    const figures = await measuredRounds(cases, ROUNDS);

    console.log(`${availableParallelism()} cores; ${ROUNDS} interleaved rounds of ${ROUND_MS / 1000} s; createHumanUser of new users, no delivery\n`);
    console.log(figuresTable(figures));
    console.log("");
    for (const figure of figures.slice(1)) console.log(`${figure.name}: ${speedUp(figure)} the throughput of 1 process (median, min–max of the rounds)`);
    for (const { name } of runs) console.log(`${name}: Node busy ${median(busy.get(name) ?? []).toFixed(2)} of a core (median); the rest of the time it waits for PostgreSQL`);
    for (const child of processes) child.disconnect();
    await Promise.all(processes.map((child) => child.exited));
  } finally {
    await children.killAll();
    await schema.drop();
  }
}
