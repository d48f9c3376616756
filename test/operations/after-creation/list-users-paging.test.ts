// listUsers pages through many users created at one clock time, so that the creation date ties
// everywhere and only the tie-break by user id keeps the pages apart: no user twice, none left out.
// 10,000 users on PostgreSQL (skipped, saying so, without a server) and on memory; 2,000 on PGlite.
import { describe, expect, it } from "vitest";
import { importHumanUsers, listUsers, type BulkImportOutcome, type ListUsersResponse } from "../../../src/index.js";
import { postgresUrl, storeCases } from "../support/stores.js";
import { instanceAdmin, openHarness, START } from "./harness.js";

const COUNTS: Readonly<Record<string, number>> = { memory: 10_000, postgres: 10_000, pglite: 2_000 };

function request(index: number): Record<string, unknown> {
  return { userName: `page-${index}`, profile: { firstName: "Page", lastName: `N${index}` }, email: { email: `page-${index}@acme.test`, isEmailVerified: true } };
}

async function importAll(run: AsyncGenerator<BulkImportOutcome>): Promise<string[]> {
  const ids: string[] = [];
  for await (const outcome of run) {
    if (!("ok" in outcome)) throw new Error(`user ${outcome.index} was not imported: ${JSON.stringify(outcome)}`);
    ids.push(outcome.ok.userId);
  }
  return ids;
}

describe("listUsers paging through users that tie on the sort column", () => {
  // Without a server the PostgreSQL case shows as skipped, with the reason, rather than as a pass.
  if (postgresUrl === undefined) it.skip("10,000 users on PostgreSQL (skipped: no PostgreSQL server answers; set HUMAN_USERS_PG_URL)", () => undefined);

  for (const storeCase of storeCases) {
    const count = COUNTS[storeCase.name] ?? 1_000;
    it(`pages through ${count.toLocaleString("en")} users on ${storeCase.name}, both ways, without a repeat or a gap`, async () => {
      const harness = await openHarness(storeCase, { config: { immediateDelivery: "off" } });
      try {
        const requests = Array.from({ length: count }, (_, index) => request(index));
        const ids = await importAll(importHumanUsers(harness.ports, requests, { requester: instanceAdmin, orgId: "acme" }));
        expect(harness.clock.iso()).toBe(START);
        const byId = [...ids].sort();

        for (const [ascending, limit] of [[true, 1000], [false, 777]] as const) {
          const seen: string[] = [];
          for (let offset = 0; offset <= count; offset += limit) {
            const page = (await listUsers(harness.ports, { sortingColumn: "USER_FIELD_NAME_CREATION_DATE", query: { offset, limit, asc: ascending } }, { requester: instanceAdmin }))._unsafeUnwrap();
            const expectedSize = Math.max(0, Math.min(limit, count - offset));
            expect({ total: page.details.totalResult, size: page.result?.length ?? 0 }).toEqual({ total: String(count), size: expectedSize });
            seen.push(...(page.result ?? []).map((user) => user.userId));
            checkTies(page);
          }
          expect(new Set(seen).size).toBe(count);
          expect(seen).toEqual(ascending ? byId : [...byId].reverse());
        }
      } finally {
        await harness.close();
      }
    }, 600_000);
  }
});

/** Every user of a page was created at the one clock time: only the user id orders them. */
function checkTies(page: ListUsersResponse): void {
  const times = new Set((page.result ?? []).map((user) => user.details.changeDate));
  expect([...times].every((time) => time === START)).toBe(true);
}
