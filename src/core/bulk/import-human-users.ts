import { err, type Result } from "neverthrow";
import type { Ports } from "../../ports/index.js";
import type { Storage } from "../../ports/storage.js";
import type { OperationContext } from "../context.js";
import type { ErrorBody } from "../errors/error-body.js";
import { importSpec } from "../commands/import-human-user.js";
import { portFailure } from "../commands/port-call.js";
import { finishUserCreation, prepareUserCreation, type PreparedUser } from "../commands/run-user-creation.js";
import { resolvePorts, type ResolvedPorts } from "../resolved-ports.js";
import type { ImportHumanUserResponse } from "../responses.js";
import { bulkLookups } from "./bulk-lookups.js";
import { limiter, type Limiter } from "./limiter.js";
import { writeBatch, type WriteAnswer } from "./write-batch.js";

/** Anything with `aborted`, such as an `AbortSignal`. */
export interface StopSignal {
  readonly aborted: boolean;
}

export interface BulkImportOptions {
  /** Users per storage write (one `appendUsers` call). Default 500. */
  readonly batchSize?: number;
  /** Users checked at the same time (validation, lookups, hashing of plain passwords). Default 64. */
  readonly concurrency?: number;
  /**
   * Once aborted, no further item is read: the items already read are finished (written and
   * answered), then the outcomes end. Items never read get no outcome.
   */
  readonly signal?: StopSignal;
}

/** The answer for the item at `index` (0-based position in the source): operation B's body or error body. */
export type BulkImportOutcome =
  | { readonly index: number; readonly ok: ImportHumanUserResponse }
  | { readonly index: number; readonly error: ErrorBody };

/** Operation B requests (parsed JSON bodies, checked like `importHumanUser`'s). */
export type BulkImportSource = Iterable<unknown> | AsyncIterable<unknown>;

export const defaultBulkImportOptions = { batchSize: 500, concurrency: 64 } as const;

type Prepared = Result<PreparedUser<ImportHumanUserResponse>, ErrorBody>;
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
  /** The store itself, for writes: lookups go through `ports.storage`. */
  readonly storage: Storage;
  readonly context: OperationContext;
  readonly batchSize: number;
  readonly preparing: Limiter;
  /** Separate from `preparing`: a written batch's deliveries must not queue behind the next batch's checks. */
  readonly finishing: Limiter;
  readonly signal: StopSignal | undefined;
  /** Set when the consumer stops iterating: nothing more is read. */
  closed: boolean;
}

function wholeNumber(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

function outcomeOf(index: number, answer: Answer): BulkImportOutcome {
  return answer.isOk() ? { index, ok: answer.value } : { index, error: answer.error };
}

function iteratorOf(source: BulkImportSource): AsyncIterator<unknown> | Iterator<unknown> {
  return Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
}

/** Reads up to one batch of items and starts preparing each; never rejects. */
async function readChunk(run: Run, items: AsyncIterator<unknown> | Iterator<unknown>, firstIndex: number): Promise<Chunk> {
  const preparations: Promise<Prepared>[] = [];
  while (preparations.length < run.batchSize) {
    if (run.closed || run.signal?.aborted === true) return { firstIndex, preparations, last: true };
    let next: IteratorResult<unknown>;
    try {
      next = await items.next();
    } catch (cause) {
      const sourceFailure = { index: firstIndex + preparations.length, error: portFailure(cause, "bulk import source", run.ports.logger) };
      return { firstIndex, preparations, last: true, sourceFailure };
    }
    if (next.done === true) return { firstIndex, preparations, last: true };
    const request = next.value;
    preparations.push(run.preparing.run(() => prepareUserCreation(run.ports, request, run.context, importSpec)));
  }
  return { firstIndex, preparations, last: false };
}

/** Hands over the user's notifications and makes its body, once the store has answered its write. */
function answerWritten(run: Run, user: PreparedUser<ImportHumanUserResponse>, written: WriteAnswer | undefined): Promise<Answer> {
  if (written === undefined) return Promise.resolve(err(portFailure(new Error("no answer for a write"), "bulk import", run.ports.logger)));
  if (written.isErr()) return Promise.resolve(err(written.error));
  return run.finishing.run(() => finishUserCreation(run.ports, user, written.value));
}

/** Writes the chunk's prepared users in one batch and answers every item of it, in order; never rejects. */
async function finishChunk(run: Run, chunk: Chunk): Promise<BulkImportOutcome[]> {
  const prepared = await Promise.all(chunk.preparations);
  try {
    const ready = prepared.flatMap((item) => (item.isOk() ? [item.value] : []));
    const written = await writeBatch(run.ports, run.storage, ready.map((user) => user.planned.write));
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

/**
 * Operation B for every request of `source` (an iterable or async iterable), answered in input
 * order as `{ index, ok }` or `{ index, error }` with the same bodies `importHumanUser` gives.
 *
 * Reads at most two batches ahead of the consumer, so memory stays bounded whatever the input's
 * size. Users are checked `concurrency` at a time and written `batchSize` at a time, through the
 * store's `appendUsers` when it has one, batch after batch in input order: of two items claiming
 * one username, the first wins and the other answers 6, in the same batch or not. One bad item
 * never fails its neighbours. Never throws: a port failure answers 13 or 14 for the items it
 * touched, and a source that throws ends the outcomes with a code-13 answer at the position it
 * failed at.
 */
export async function* importHumanUsers(
  ports: Ports,
  source: BulkImportSource,
  context: OperationContext,
  options: BulkImportOptions = {},
): AsyncGenerator<BulkImportOutcome, void, undefined> {
  const concurrency = wholeNumber(options.concurrency, defaultBulkImportOptions.concurrency);
  const run: Run = {
    ports: resolvePorts({ ...ports, storage: bulkLookups(ports.storage) }),
    storage: ports.storage,
    context,
    batchSize: wholeNumber(options.batchSize, defaultBulkImportOptions.batchSize),
    preparing: limiter(concurrency),
    finishing: limiter(concurrency),
    signal: options.signal,
    closed: false,
  };
  let items: AsyncIterator<unknown> | Iterator<unknown>;
  try {
    items = iteratorOf(source);
  } catch (cause) {
    yield { index: 0, error: portFailure(cause, "bulk import source", ports.logger) };
    return;
  }
  try {
    let reading = readChunk(run, items, 0);
    for (;;) {
      const chunk = await reading;
      // The next batch is read and checked while this one is written and its answers consumed.
      const following = chunk.last ? undefined : readChunk(run, items, chunk.firstIndex + chunk.preparations.length);
      yield* await finishChunk(run, chunk);
      if (chunk.sourceFailure !== undefined) yield chunk.sourceFailure;
      if (following === undefined) return;
      reading = following;
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
