// Operations A and B on in-memory ports, one core: requests per second without a password and
// with an imported bcrypt hash, beside the cost of validating the same request alone (the
// baseline, measured in the same run). Run with `npm run bench -- operations`.
import type { ResultAsync } from "neverthrow";
import { Bench } from "tinybench";
import { createHumanUser, fixedClock, importHumanUser, memoryMailer, memoryStore, type ErrorBody, type Ports } from "../src/index.js";
import { parseCreateRequest } from "../src/core/schemas/create-human-user.js";
import { camelCaseKeys } from "../src/core/wire/camel-case-keys.js";

const BCRYPT = "$2b$10$Qe2lsy1SbQJd3ZAE0RNCVuXs0YkqXCwbwjzm.6t6r8s1RkUb5eHhO";
const context = { requester: { userId: "admin", orgId: "acme" } };

function freshPorts(): Ports {
  return {
    storage: memoryStore({ organizations: [{ id: "acme", domains: [{ domain: "acme.example", verified: true }] }] }),
    mailer: memoryMailer(),
    clock: fixedClock("2026-01-01T00:00:00Z"),
  };
}

let counter = 0;
const createRequest = (extra: Record<string, unknown> = {}) => ({
  username: `user-${++counter}`,
  profile: { givenName: "Ann", familyName: "Lee", preferredLanguage: "en" },
  email: { email: `user-${counter}@example.com` },
  ...extra,
});

async function expectOk<T>(result: ResultAsync<T, ErrorBody>): Promise<void> {
  if (!(await result).isOk()) throw new Error("bench request was refused");
}

const ports = freshPorts();
const rules = { defaultPhoneRegion: undefined, refusalOfHash: () => undefined, passwordPolicy: undefined };
const sample = createRequest();

const bench = new Bench({ time: 2000, warmup: true });
bench
  .add("validation alone (the same request, parsed and checked)", () => {
    if (camelCaseKeys(sample).andThen((request) => parseCreateRequest(request, rules)).isErr()) throw new Error("invalid");
  })
  .add("createHumanUser, no password (verification mail delivered)", () => expectOk(createHumanUser(ports, createRequest(), context)))
  .add("createHumanUser, no password, code returned (no mail)", () =>
    expectOk(createHumanUser(ports, createRequest({ email: { email: `r-${counter}@example.com`, returnCode: {} } }), context)),
  )
  .add("createHumanUser, imported bcrypt hash", () => expectOk(createHumanUser(ports, createRequest({ hashedPassword: { hash: BCRYPT } }), context)))
  .add("importHumanUser, imported bcrypt hash, verified email", () =>
    expectOk(
      importHumanUser(
        ports,
        {
          userName: `import-${++counter}`,
          profile: { firstName: "Ann", lastName: "Lee" },
          email: { email: `import-${counter}@example.com`, isEmailVerified: true },
          hashedPassword: { value: BCRYPT },
        },
        context,
      ),
    ),
  );

await bench.run();

const rows = bench.tasks.map((task) => {
  const result = task.result;
  const hz = result && "throughput" in result ? result.throughput.mean : 0;
  return { name: task.name, hz };
});
const baseline = rows[0]?.hz ?? Number.NaN;
console.log("| case | ops/s | µs/op | cost vs validation alone |");
console.log("|---|---:|---:|---:|");
for (const row of rows) {
  console.log(`| ${row.name} | ${Math.round(row.hz).toLocaleString("en")} | ${(1e6 / row.hz).toFixed(1)} | ${(baseline / row.hz).toFixed(2)}x |`);
}
