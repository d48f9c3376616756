// 50 wrong passwords at once against a lockout limit of 5: the user ends locked, and every call
// that answered 3 was recorded exactly once (each decision is appended at the sequence it was
// made on, so a decision on a stale count is never written).
import { describe, expect, it } from "vitest";
import type { Result } from "neverthrow";
import { checkPassword, type ErrorBody } from "../../src/index.js";
import { patchStorage } from "../support/patch-storage.js";
import { annWithHash, cheapHash, imported, storeKinds } from "./support/first-login.js";
import { plainError } from "./support/ports.js";

const kinds = await storeKinds("password_race");
const CALLS = 50;
const FAILED = "user.human.password.check.failed";

function codeOf(result: Result<unknown, ErrorBody>): number {
  return result.isErr() ? result.error.code : 0;
}

describe.each(kinds)("concurrent wrong passwords on $name", (kind) => {
  async function race(appendAttempts: number) {
    const harness = await kind.open({ config: { appendAttempts } });
    const { ports, eventsOf } = harness;
    const body = annWithHash(cheapHash("Right-Password-1"), { userName: "racer", email: { email: "racer@must.test", isEmailVerified: true } });
    const userId = await imported(ports, body, "must");
    const results = await Promise.all(Array.from({ length: CALLS }, () => checkPassword(ports, { userId, password: "Wrong-Password-1" })));
    const codes = results.map(codeOf);
    const answered = (code: number) => codes.filter((each) => each === code).length;
    const types = async () => (await eventsOf(userId, 2)).map((stored) => stored.type);
    return { ports, userId, answered, types };
  }

  it(`lock the user at 5 of ${CALLS} with the default tries, each call answered 3 recorded once`, async () => {
    const { ports, userId, answered, types } = await race(5);

    // Only refusals: wrong (3), locked meanwhile (9), or out of tries (10, not recorded).
    expect(answered(3) + answered(9) + answered(10)).toBe(CALLS);
    expect(answered(3)).toBe(5);
    expect(await types()).toEqual([...Array.from({ length: 5 }, () => FAILED), "user.locked"]);
    expect(codeOf(await checkPassword(ports, { userId, password: "Right-Password-1" }))).toBe(9);
  });

  it("with 2 tries per call, record exactly the calls answered 3, and the count goes on from there to the lock", async () => {
    const { ports, userId, answered, types } = await race(2);

    expect(answered(3) + answered(9) + answered(10)).toBe(CALLS);
    const recorded = (await types()).filter((type) => type === FAILED).length;
    expect(recorded).toBe(answered(3));
    // However many the race recorded, the lock comes at the fifth failure in all.
    while (codeOf(await checkPassword(ports, { userId, password: "Wrong-Password-1" })) === 3);
    expect(await types()).toEqual([...Array.from({ length: 5 }, () => FAILED), "user.locked"]);
  });
});

describe("a check whose tries run out", () => {
  it("answers 10 and records nothing", async () => {
    const [memory] = kinds;
    if (memory === undefined) throw new Error("no memory store");
    const { ports, eventsOf } = await memory.open();
    const userId = await imported(ports, annWithHash(cheapHash("Right-Password-1")));
    // Another request appends first, every time.
    const storage = patchStorage(ports.storage, { userLog: { append: () => Promise.resolve({ ok: false, reason: "sequence-conflict", actualSequence: 99 }) } });

    expect((await checkPassword({ ...ports, storage }, { userId, password: "Wrong-Password-1" }))._unsafeUnwrapErr()).toEqual(
      plainError(10, "USER-4brt", "the user was changed by another request at the same time, more often than the retries allow; try again"),
    );
    expect(await eventsOf(userId, 2)).toEqual([]);
  });
});
