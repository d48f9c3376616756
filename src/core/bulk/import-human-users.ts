import { err, ok, type Result } from "neverthrow";
import type { Ports } from "../../ports/index.js";
import type { UniqueClaim, UserLog } from "../../ports/user-log.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { limiter, type Limiter } from "../../shared/limiter.js";
import type { UserDraft } from "../user-draft.js";
import type { OperationContext } from "../context.js";
import { importHumanUserCommand } from "../commands/import-human-user.js";
import { portFailure } from "../commands/port-call.js";
import { continueCommand, decideCommand, finishCommand, prepareCommand, type Decided, type PreparedCommand } from "../commands/runner.js";
import { resolvePorts, type CommandRuntime, type ResolvedPorts } from "../resolved-ports.js";
import type { ImportHumanUserResponse } from "../responses.js";
import { bulkLookups } from "./bulk-lookups.js";
import { writeBatch, type WriteAnswer } from "./write-batch.js";
import { writeOrder, type WriteOrder } from "./write-order.js";

/** Anything with `aborted`, such as an `AbortSignal`. */
export interface StopSignal {
  readonly aborted: boolean;
}

/** How `importHumanUsers` batches and paces an import; every member optional. */
export interface BulkImportOptions {
  /** Users per storage write (one `appendNewUsers` call). Default 500. */
  readonly batchSize?: number;
  /** Users checked at the same time (validation, lookups, hashing of plain passwords). Default 64. */
  readonly concurrency?: number;
  /**
   * Batches written at the same time. Default 2. A batch that wants a claim (a username, an
   * identity provider account) of an earlier batch still being written waits for it.
   */
  readonly parallelBatches?: number;
  /**
   * Once aborted, no further item is read: the items already read are finished (written and
   * answered), then the outcomes end. Items never read get no outcome.
   */
  readonly signal?: StopSignal;
}

/** The answer for the item at `index` (0-based position in the source): `importHumanUser`'s body or error body. */
export type BulkImportOutcome =
  | { readonly index: number; readonly ok: ImportHumanUserResponse }
  | { readonly index: number; readonly error: ErrorBody };

/** Requests as `importHumanUser` takes them (parsed JSON bodies), each checked as it checks one. */
export type BulkImportSource = Iterable<unknown> | AsyncIterable<unknown>;

/** The options `importHumanUsers` uses for members left out. */
export const defaultBulkImportOptions = { batchSize: 500, concurrency: 64, parallelBatches: 2 } as const;

/** One item checked and decided (steps 1 to 6), its append not written yet. */
interface ReadyUser {
  readonly prepared: PreparedCommand<UserDraft, ImportHumanUserResponse>;
  readonly decided: Decided<ImportHumanUserResponse>;
}

type Prepared = Result<ReadyUser, ErrorBody>;
type Answer = Result<ImportHumanUserResponse, ErrorBody>;

/** Items read from the source, their preparation started. */
interface Chunk {
  readonly firstIndex: number;
  readonly preparations: readonly Promise<Prepared>[];
  /** No item follows: the source ended, failed, or the import was stopped. */
  readonly last: boolean;
  /** The source threw while this chunk was read: the answer at the position it failed at. */
  readonly sourceFailure?: BulkImportOutcome;
}

interface Run {
  readonly ports: ResolvedPorts;
  readonly runtime: CommandRuntime;
  /** The store's own user log, for writes: lookups go through `ports`, cached and coalesced. */
  readonly userLog: UserLog;
  readonly context: OperationContext;
  readonly batchSize: number;
  readonly preparing: Limiter;
  /** Separate from `preparing`: a written batch's deliveries must not queue behind the next batch's checks. */
  readonly finishing: Limiter;
  readonly signal: StopSignal | undefined;
  readonly parallelBatches: number;
  readonly writeOrder: WriteOrder;
  /** Set when the consumer stops iterating: nothing more is read. */
  closed: boolean;
}

function wholeNumber(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

function outcomeOf(index: number, answer: Answer): BulkImportOutcome {
  return answer.isOk() ? { index, ok: answer.value } : { index, error: answer.error };
}

/** The source's iterator; anything that is not one throws, and the import answers 13 at index 0. */
function iteratorOf(source: BulkImportSource): AsyncIterator<unknown> | Iterator<unknown> {
  const items: unknown = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  if (typeof items !== "object" || items === null || typeof (items as { next?: unknown }).next !== "function") {
    throw new TypeError("the source's iterator is not an object with a next() method");
  }
  return items as AsyncIterator<unknown> | Iterator<unknown>;
}

/** Whether the stop signal says stop; a signal that throws when read stops the import with 13 at `index`. */
function stopRequested(run: Run, index: number): { readonly stop: boolean; readonly failure?: BulkImportOutcome } {
  try {
    return { stop: run.signal?.aborted === true };
  } catch (cause) {
    return { stop: true, failure: { index, error: portFailure(cause, "bulk import stop signal", run.ports.logger) } };
  }
}

type Read = { readonly done: true } | { readonly done: false; readonly request: unknown };

/** The next item of the source, read as `for await` reads it; throws what the source throws. */
async function readItem(items: AsyncIterator<unknown> | Iterator<unknown>): Promise<Read> {
  const next: unknown = await items.next();
  if (typeof next !== "object" || next === null) throw new TypeError("the source's next() gave something that is not an iterator result");
  const result = next as IteratorResult<unknown>;
  if (result.done) return { done: true };
  return { done: false, request: result.value };
}

/** Reads up to one batch of items and starts preparing each; never rejects. */
async function readChunk(run: Run, items: AsyncIterator<unknown> | Iterator<unknown>, firstIndex: number): Promise<Chunk> {
  const preparations: Promise<Prepared>[] = [];
  while (preparations.length < run.batchSize) {
    const index = firstIndex + preparations.length;
    const stop = run.closed ? { stop: true } : stopRequested(run, index);
    if (stop.stop) return { firstIndex, preparations, last: true, ...(stop.failure === undefined ? {} : { sourceFailure: stop.failure }) };
    let read: Read;
    try {
      read = await readItem(items);
    } catch (cause) {
      return { firstIndex, preparations, last: true, sourceFailure: { index, error: portFailure(cause, "bulk import source", run.ports.logger) } };
    }
    if (read.done) return { firstIndex, preparations, last: true };
    const request = read.request;
    preparations.push(run.preparing.run(() => prepareItem(run, request)));
  }
  return { firstIndex, preparations, last: false };
}

/** Steps 1 to 6 of `importHumanUser` for one item. Never rejects. */
async function prepareItem(run: Run, request: unknown): Promise<Prepared> {
  const prepared = await prepareCommand(run.ports, request, run.context, importHumanUserCommand);
  if (prepared.isErr()) return err(prepared.error);
  const decided = await decideCommand(run.ports, prepared.value, 1);
  if (decided.isErr()) return err(decided.error);
  if (decided.value.append === undefined) return err(portFailure(new Error("an import decided to append nothing"), "bulk import", run.ports.logger));
  return ok({ prepared: prepared.value, decided: decided.value });
}

/**
 * Hands over the user's notifications and makes its body once the store has answered its append;
 * an append that must be decided again (a generated id taken meanwhile) goes on as `importHumanUser` would.
 */
function answerWritten(run: Run, user: ReadyUser, written: WriteAnswer | undefined): Promise<Answer> {
  if (written === undefined) return Promise.resolve(err(portFailure(new Error("no answer for a write"), "bulk import", run.ports.logger)));
  if (written.isErr()) return Promise.resolve(err(written.error));
  return run.finishing.run(async () => {
    const finish = await finishCommand(run.ports, run.runtime, user.decided, written.value);
    return finish.retry ? continueCommand(run.ports, run.runtime, user.prepared, 2) : finish.answer;
  });
}

function claimsOf(prepared: readonly Prepared[]): UniqueClaim[] {
  return prepared.flatMap((item) => (item.isOk() ? (item.value.decided.append?.claims ?? []) : []));
}

/** Writes the chunk's prepared users in one batch, when its turn comes, and answers every item of it in order; never rejects. */
async function finishChunk(run: Run, chunk: Chunk): Promise<BulkImportOutcome[]> {
  const preparing = Promise.all(chunk.preparations);
  const writeOver = await run.writeOrder.admit(preparing.then(claimsOf));
  const prepared = await preparing;
  if (run.closed) {
    // Nobody will read these answers any more: nothing is written for them.
    writeOver();
    return [];
  }
  try {
    const ready = prepared.flatMap((item) => (item.isOk() ? [item.value] : []));
    let written: WriteAnswer[];
    try {
      written = await writeBatch(run.ports, run.userLog, ready.flatMap((user) => (user.decided.append === undefined ? [] : [user.decided.append])));
    } finally {
      writeOver();
    }
    let writeIndex = 0;
    const answers = prepared.map((item): Promise<Answer> =>
      item.isErr() ? Promise.resolve(err(item.error)) : answerWritten(run, item.value, written[writeIndex++]),
    );
    return (await Promise.all(answers)).map((answer, offset) => outcomeOf(chunk.firstIndex + offset, answer));
  } catch (cause) {
    const failure = portFailure(cause, "bulk import", run.ports.logger);
    return prepared.map((_, offset) => ({ index: chunk.firstIndex + offset, error: failure }));
  }
}

interface Settings {
  readonly batchSize: number;
  readonly concurrency: number;
  readonly parallelBatches: number;
  readonly signal: StopSignal | undefined;
}

/** The options over their defaults: options that are not an object are none, a member that is no usable number its default. */
function settingsOf(options: unknown): Settings {
  const given = typeof options === "object" && options !== null ? (options as Readonly<Record<string, unknown>>) : {};
  const number = (value: unknown) => (typeof value === "number" ? value : undefined);
  const signal = given["signal"];
  return {
    batchSize: wholeNumber(number(given["batchSize"]), defaultBulkImportOptions.batchSize),
    concurrency: wholeNumber(number(given["concurrency"]), defaultBulkImportOptions.concurrency),
    parallelBatches: wholeNumber(number(given["parallelBatches"]), defaultBulkImportOptions.parallelBatches),
    signal: typeof signal === "object" && signal !== null ? (signal as StopSignal) : undefined,
  };
}

/**
 * The run's state: the host's ports checked (9 when unusable) and resolved, the options read
 * (13 when reading one throws), lookups cached for the whole import. Never throws.
 */
function startRun(ports: Ports, context: OperationContext, options: BulkImportOptions | undefined, runtime: CommandRuntime): Result<Run, ErrorBody> {
  const checked = resolvePorts(ports, runtime);
  if (checked.isErr()) return err(checked.error);
  const host = checked.value;
  let settings: Settings;
  try {
    settings = settingsOf(options);
  } catch (cause) {
    return err(portFailure(cause, "bulk import options", host.logger));
  }
  try {
    const lookups = bulkLookups(host.directory, host.userLog);
    const resolved = resolvePorts({ ...host, directory: lookups.directory, storage: { ...host.storage, userLog: lookups.userLog } }, runtime);
    if (resolved.isErr()) return err(resolved.error);
    return ok({
      ports: resolved.value,
      runtime,
      userLog: host.userLog,
      context,
      batchSize: settings.batchSize,
      preparing: limiter(settings.concurrency),
      finishing: limiter(settings.concurrency),
      signal: settings.signal,
      parallelBatches: settings.parallelBatches,
      writeOrder: writeOrder(),
      closed: false,
    });
  } catch (cause) {
    return err(portFailure(cause, "bulk import", host.logger));
  }
}

/**
 * `importHumanUser` for every request of `source` (an iterable or async iterable), answered in input
 * order as `{ index, ok }` or `{ index, error }` with the same bodies `importHumanUser` gives.
 *
 * Reads at most `parallelBatches + 1` batches ahead of the consumer, so memory stays bounded
 * whatever the input's size. Users are checked `concurrency` at a time and written `batchSize` at
 * a time, through the user log's `appendNewUsers` when it has one; of two items claiming one username,
 * the first in input order wins and the other answers 6, in the same batch or not. One bad item
 * never fails its neighbours. Never throws or rejects: ports that fail the configuration check
 * answer 9 at index 0; a port failure answers 13 or 14 for the items it touched; an option or the
 * stop signal that throws when read, and a source that throws or gives something that is not an
 * iterator or an iterator result, end the outcomes with a code-13 answer at the position it
 * failed at. Options that are not an object, and members that are not usable numbers, are the defaults.
 */
export async function* runBulkImport(
  ports: Ports,
  source: BulkImportSource,
  context: OperationContext,
  options: BulkImportOptions | undefined,
  runtime: CommandRuntime,
): AsyncGenerator<BulkImportOutcome, void, undefined> {
  const started = startRun(ports, context, options, runtime);
  if (started.isErr()) {
    yield { index: 0, error: started.error };
    return;
  }
  const run = started.value;
  let items: AsyncIterator<unknown> | Iterator<unknown>;
  try {
    items = iteratorOf(source);
  } catch (cause) {
    yield { index: 0, error: portFailure(cause, "bulk import source", run.ports.logger) };
    return;
  }
  try {
    // Batches are read, checked and written ahead of the consumer, up to `parallelBatches` of them
    // plus the one being read; answers are handed out batch after batch, in input order.
    const inFlight: Promise<BulkImportOutcome[]>[] = [];
    let reading: Promise<Chunk> | undefined = readChunk(run, items, 0);
    while (reading !== undefined || inFlight.length > 0) {
      if (reading !== undefined && inFlight.length < run.parallelBatches) {
        const chunk: Chunk = await reading;
        reading = chunk.last ? undefined : readChunk(run, items, chunk.firstIndex + chunk.preparations.length);
        inFlight.push(finishChunk(run, chunk).then((outcomes) => (chunk.sourceFailure === undefined ? outcomes : [...outcomes, chunk.sourceFailure])));
      } else yield* (await inFlight.shift()) ?? [];
    }
  } finally {
    run.closed = true;
    try {
      await items.return?.();
    } catch {
      // A source that fails to close has nothing more to give.
    }
  }
}
