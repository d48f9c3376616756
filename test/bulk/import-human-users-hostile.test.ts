// importHumanUsers never throws or rejects: every failure of the source, the options, the ports or
// the context becomes an outcome (13 for what broke, 9 for unusable ports, or the item's own answer).
import { describe, expect, it } from "vitest";
import { importHumanUsers, type BulkImportOptions, type BulkImportOutcome, type Ports } from "../../src/index.js";
import { internal, invalidConfiguration, unauthenticated } from "../../src/core/errors/user-errors.js";
import { adminInAcme, bulkPorts, collect, importedBody, userRequest } from "./support.js";

interface Logged {
  readonly message: string;
  readonly cause: unknown;
}

function loggingPorts(): { ports: ReturnType<typeof bulkPorts>; logged: Logged[] } {
  const logged: Logged[] = [];
  const logger = { warn: () => undefined, error: (fields: Readonly<Record<string, unknown>>, message: string) => void logged.push({ message, cause: fields["err"] }) };
  return { ports: bulkPorts({ logger }), logged };
}

/** A source whose iterator answers `results[n]` to its n-th `next()`, then ends. */
function scriptedSource(results: readonly (() => unknown)[]): Iterable<unknown> {
  return {
    [Symbol.iterator]() {
      let call = 0;
      return { next: () => (call < results.length ? results[call++]?.() : { done: true, value: undefined }) } as Iterator<unknown>;
    },
  };
}

const item = (value: unknown) => () => ({ done: false, value });
const boom = new Error("boom");
const throwing = () => {
  throw boom;
};

function run(ports: unknown, source: unknown, options?: unknown, context: unknown = adminInAcme): Promise<BulkImportOutcome[]> {
  return collect(importHumanUsers(ports as Ports, source as Iterable<unknown>, context as typeof adminInAcme, options as BulkImportOptions));
}

describe("importHumanUsers with a hostile source", () => {
  it("answers 13 at the position where next() gave something that is not an iterator result", async () => {
    for (const answer of [undefined, null, 42, "result"]) {
      const { ports, logged } = loggingPorts();
      expect(await run(ports, scriptedSource([item(userRequest("ann")), () => answer]))).toEqual([{ index: 0, ok: importedBody() }, { index: 1, error: internal() }]);
      expect(logged.map((entry) => entry.message)).toEqual(["human-users: bulk import source failed"]);
      expect(logged[0]?.cause).toEqual(new TypeError("the source's next() gave something that is not an iterator result"));
    }
  });

  it("answers 13 at the position where reading value or done threw, and logs the cause", async () => {
    const throwingValue = () => ({ done: false, get value() { return throwing(); } });
    const throwingDone = () => ({ get done() { return throwing(); }, value: userRequest("bob") });
    for (const broken of [throwingValue, throwingDone]) {
      const { ports, logged } = loggingPorts();
      expect(await run(ports, scriptedSource([item(userRequest("ann")), broken, item(userRequest("cy"))]))).toEqual([
        { index: 0, ok: importedBody() },
        { index: 1, error: internal() },
      ]);
      expect(logged).toEqual([{ message: "human-users: bulk import source failed", cause: boom }]);
    }
  });

  it("answers 13 at index 0 for a source that is no iterable, or whose iterator is not an object", async () => {
    const sources = [
      null,
      undefined,
      42,
      { [Symbol.iterator]: 5 },
      { [Symbol.iterator]: () => 42 },
      { [Symbol.iterator]: () => null },
      { [Symbol.iterator]: () => ({ next: "not a function" }) },
      { [Symbol.asyncIterator]: () => undefined },
      { get [Symbol.iterator]() { return throwing(); } },
    ];
    for (const source of sources) expect(await run(bulkPorts(), source)).toEqual([{ index: 0, error: internal() }]);
  });

  it("finishes normally when the iterator's return() throws or is not a function", async () => {
    for (const closing of [throwing, "not a function", () => Promise.reject(boom)]) {
      const source = {
        [Symbol.iterator]() {
          let call = 0;
          return { next: () => (call++ === 0 ? { done: false, value: userRequest("ann") } : { done: true, value: undefined }), return: closing };
        },
      };
      expect(await run(bulkPorts(), source)).toEqual([{ index: 0, ok: importedBody() }]);
      // A consumer that stops early closes the source.
      const early: BulkImportOutcome[] = [];
      for await (const outcome of importHumanUsers(bulkPorts(), source as unknown as Iterable<unknown>, adminInAcme)) {
        early.push(outcome);
        break;
      }
      expect(early).toEqual([{ index: 0, ok: importedBody() }]);
    }
  });
});

describe("importHumanUsers with hostile options, ports and context", () => {
  it("answers 13 at index 0 and reads and writes nothing when reading an option throws", async () => {
    let reads = 0;
    const source = scriptedSource([() => ((reads += 1), { done: false, value: userRequest("ann") })]);
    for (const name of ["batchSize", "concurrency", "parallelBatches", "signal"]) {
      const { ports, logged } = loggingPorts();
      const options = Object.defineProperty({}, name, { get: throwing, enumerable: true });
      expect(await run(ports, source, options)).toEqual([{ index: 0, error: internal() }]);
      expect(logged).toEqual([{ message: "human-users: bulk import options failed", cause: boom }]);
      expect(ports.storage.events()).toEqual([]);
    }
    expect(reads).toBe(0);
  });

  it("answers 13 where the stop signal threw when read", async () => {
    let checks = 0;
    const signal = { get aborted() { return ++checks > 1 ? throwing() : false; } };
    const { ports, logged } = loggingPorts();
    expect(await run(ports, [userRequest("ann"), userRequest("bob")], { signal })).toEqual([{ index: 0, ok: importedBody() }, { index: 1, error: internal() }]);
    expect(logged).toEqual([{ message: "human-users: bulk import stop signal failed", cause: boom }]);
  });

  it("takes null options and options that are not numbers as no options", async () => {
    const requests = [userRequest("ann"), userRequest("bob")];
    const expected = [{ index: 0, ok: importedBody() }, { index: 1, ok: importedBody() }];
    for (const options of [null, 5, "options", { batchSize: "1", concurrency: Number.NaN, parallelBatches: {}, signal: 5 }, { batchSize: -1, concurrency: 0, parallelBatches: Infinity, signal: null }]) {
      expect(await run(bulkPorts(), requests, options)).toEqual(expected);
    }
  });

  it("answers 9 at index 0, reading nothing, for ports that are null or unusable", async () => {
    let reads = 0;
    const source = scriptedSource([() => ((reads += 1), { done: false, value: userRequest("ann") })]);
    const { mailer: _mailer, ...withoutMailer } = bulkPorts();
    const throwingStorage = Object.defineProperty({ ...bulkPorts() }, "storage", { get: throwing });
    const cases: readonly [unknown, string][] = [
      [null, "ports must be an object"],
      [undefined, "ports must be an object"],
      [withoutMailer, "ports.mailer is missing: memoryMailer() in tests, smtpMailer(...) from human-users/smtp, or an object with send(message)"],
      [throwingStorage, "ports.storage could not be read"],
    ];
    for (const [ports, problem] of cases) expect(await run(ports, source)).toEqual([{ index: 0, error: invalidConfiguration([problem]) }]);
    expect(reads).toBe(0);
  });

  it("answers 13 at index 0, reading nothing, when a port that passed the check throws as the ports are resolved", async () => {
    let reads = 0;
    const source = scriptedSource([() => ((reads += 1), { done: false, value: userRequest("ann") })]);
    const { ports, logged } = loggingPorts();
    // Read once by the check, then again as the ports are resolved: the second read throws.
    let boundReads = 0;
    const secondReadThrows = () => ((boundReads += 1) > 1 ? throwing() : undefined);
    const throwingBounds = Object.defineProperty({ ...ports }, "hashBounds", { get: secondReadThrows, enumerable: true });
    expect(await run(throwingBounds, source)).toEqual([{ index: 0, error: internal() }]);
    expect(logged).toEqual([{ message: "human-users: resolving the ports failed", cause: boom }]);
    expect(reads).toBe(0);
  });

  it("answers each item as importHumanUser would for a context that is null, not an object, or throws when read", async () => {
    const requests = [userRequest("ann"), userRequest("bob")];
    for (const context of [null, 5, "context"]) {
      expect(await run(bulkPorts(), requests, undefined, context)).toEqual([{ index: 0, error: unauthenticated() }, { index: 1, error: unauthenticated() }]);
    }
    const throwingContext = Object.defineProperty({}, "requester", { get: throwing, enumerable: true });
    expect(await run(bulkPorts(), requests, undefined, throwingContext)).toEqual([{ index: 0, error: internal() }, { index: 1, error: internal() }]);
  });
});
