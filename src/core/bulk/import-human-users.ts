import { err, ok, type Result } from "neverthrow";
import type { Ports } from "../../ports/index.js";
import type { StoredEvent, UniqueClaim, UserLog } from "../../ports/user-log.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { limiter, type Limiter } from "../../shared/limiter.js";
import type { StopSignal } from "../../shared/stop-signal.js";
import type { UserDraft } from "../user-draft.js";
import type { OperationContext } from "../context.js";
import { claimKey, idpLinkClaim, usernameClaim } from "../claims.js";
import type { Command, RequestObject } from "../commands/command.js";
import { importHumanUserCommand, importUsernameField, importWithoutCodesCommand } from "../commands/import-human-user.js";
import { isThenable } from "../../shared/host-calls.js";
import { callPort, portFailure } from "../commands/port-call.js";
import { continueCommand, decideCommand, finishCommand, prepareCommand, requestObject, type Decided, type PreparedCommand } from "../commands/runner.js";
import { alreadyExists } from "../errors/user-errors.js";
import { resolvePorts, type CommandRuntime, type ResolvedPorts } from "../resolved-ports.js";
import type { ImportHumanUserResponse } from "../responses.js";
import { idpAccountKey } from "../rules/idp-account.js";
import { traceBatch, type BatchRowAnswer } from "../telemetry/operation-span.js";
import { fingerprintsOf } from "../users/import-fingerprint.js";
import type { BulkImportOutcome } from "./bulk-outcome.js";
import { bulkLookups } from "./bulk-lookups.js";
import { judge, SourceClaims, storedHolder, storedUserHolder, type Clash, type Holder, type RowFingerprint, type Verdict } from "./same-user.js";
import { writeBatch, type WriteAnswer } from "./write-batch.js";

export type { BulkImportOutcome, ImportConflict, ImportHolder } from "./bulk-outcome.js";

export type { StopSignal } from "../../shared/stop-signal.js";

/** How `importHumanUsers` batches and paces an import; every member optional. */
export interface BulkImportOptions {
  /** Users per storage write (one `appendNewUsers` call). Default 1000. */
  readonly batchSize?: number;
  /** Users checked at the same time (validation, lookups, hashing of plain passwords). Default 64. */
  readonly concurrency?: number;
  /** Batches written at the same time. Default 3. */
  readonly parallelBatches?: number;
  /**
   * Check everything (validation, hashes, conflicts within the source and with stored users) and
   * write nothing: rows that would be imported answer `wouldImport`, the others as a real run would.
   * Any value but `false` (or none) is a dry run, so that a mistyped one never imports.
   */
  readonly dryRun?: boolean;
  /**
   * For hosts that send their own invitations: no initialization code, no phone code and no
   * message of any kind is written.
   */
  readonly withoutCodes?: boolean;
  /**
   * Once aborted, no further item is read: the items already read are finished (written and
   * answered), then the outcomes end. Items never read get no outcome.
   */
  readonly signal?: StopSignal;
  /**
   * Called with the answers a batch's new users will get, before the batch is written, and waited
   * for: what only an answer holds (a passwordless registration link) can be kept first, so that
   * a process killed after the write loses none of it. A user whose write loses a race is decided
   * again, and its outcome then carries another answer. When it throws or rejects, the batch is
   * not written and its rows fail with 13.
   */
  readonly beforeWrite?: (answers: readonly BatchAnswer[]) => void | Promise<void>;
}

/** The answer a user of a batch will get once the batch is written (see `beforeWrite`). */
export interface BatchAnswer {
  readonly index: number;
  readonly answer: ImportHumanUserResponse;
}

/** Requests as `importHumanUser` takes them (parsed JSON bodies), each checked as it checks one. */
export type BulkImportSource = Iterable<unknown> | AsyncIterable<unknown>;

/** The options `importHumanUsers` uses for members left out. */
export const defaultBulkImportOptions = { batchSize: 1000, concurrency: 64, parallelBatches: 3 } as const;

/** One item checked (steps 1 to 4) and the claims it wants. */
interface CheckedUser {
  readonly prepared: PreparedCommand<UserDraft, ImportHumanUserResponse>;
  /** The username and identity-provider accounts it wants (its generated user id is not compared). */
  readonly claims: readonly UniqueClaim[];
}

/**
 * A checked item with its fingerprint and its decision (an error when it was refused); undefined
 * when a stored user holds one of its claims or the holders could not be looked up, since such a
 * row is never written.
 */
interface ReadyUser extends CheckedUser {
  readonly fingerprint: RowFingerprint;
  readonly decided: Result<Decided<ImportHumanUserResponse>, ErrorBody> | undefined;
}

type Prepared = Result<CheckedUser, ErrorBody>;
type Ready = Result<ReadyUser, ErrorBody>;
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
  readonly command: Command<UserDraft, ImportHumanUserResponse>;
  readonly batchSize: number;
  readonly preparing: Limiter;
  /** Separate from `preparing`: a written batch's deliveries must not queue behind the next batch's checks. */
  readonly finishing: Limiter;
  readonly signal: StopSignal | undefined;
  readonly parallelBatches: number;
  readonly dryRun: boolean;
  readonly beforeWrite: BulkImportOptions["beforeWrite"];
  /** The claims of the rows to be written so far, for comparing later rows with them. */
  readonly sourceClaims: SourceClaims;
  /**
   * The rows that were to be written and were not, with their error: a later row judged the same
   * user as one of them fails with it. Filled before the row's batch is handed out, so always
   * before any later row is.
   */
  readonly failedWrites: Map<number, ErrorBody>;
  /** Settles once the previous chunk's rows are judged: rows are judged in input order. */
  judged: Promise<void>;
  /** Set when the consumer stops iterating: nothing more is read. */
  closed: boolean;
  /** Settles when the stop signal aborts, for a signal that tells (an `AbortSignal`). */
  readonly aborted: Promise<typeof ABORTED> | undefined;
  /** Set when a read was given up on an abort: the source may still be in its `next()`. */
  abandonedRead: boolean;
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

/** What a read gives when the stop signal aborted it (a symbol: no source can give it). */
const ABORTED: unique symbol = Symbol("aborted");

/** Settles when `signal` is aborted, if it can tell (an `AbortSignal`); never otherwise. */
function abortOf(signal: StopSignal | undefined): Promise<typeof ABORTED> | undefined {
  const events = signal as { addEventListener?: unknown } | undefined;
  if (typeof events?.addEventListener !== "function") return undefined;
  return new Promise((resolve) => (events.addEventListener as (type: string, listener: () => void, options: object) => void).call(signal, "abort", () => resolve(ABORTED), { once: true }));
}

/**
 * The next item of the source, read as `for await` reads it; throws what the source throws. An
 * abort while the source is still waiting ends the reading (the item it may give later is never
 * read), so that a source that waits for ever cannot hold the items read already.
 */
async function readItem(run: Run, items: AsyncIterator<unknown> | Iterator<unknown>): Promise<Read | typeof ABORTED> {
  const pending = items.next();
  const next: unknown = run.aborted === undefined || !isThenable(pending) ? await pending : await Promise.race([pending, run.aborted]);
  if (next === ABORTED) {
    run.abandonedRead = true;
    return ABORTED;
  }
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
    let read: Read | typeof ABORTED;
    try {
      read = await readItem(run, items);
    } catch (cause) {
      return { firstIndex, preparations, last: true, sourceFailure: { index, error: portFailure(cause, "bulk import source", run.ports.logger) } };
    }
    if (read === ABORTED || read.done) return { firstIndex, preparations, last: true };
    const request = snapshotOf(run, read.request);
    preparations.push(run.preparing.run(() => prepareItem(run, request)));
  }
  return { firstIndex, preparations, last: false };
}

/**
 * The item as it is when the source hands it out: it is checked later, behind `concurrency`, and a
 * source may change one object between items (a CSV reader reusing its row). What cannot be copied
 * (not an object, a getter that throws) goes on as it is, to be answered as `importHumanUser` would.
 */
function snapshotOf(run: Run, request: unknown): unknown {
  try {
    return requestObject(request, run.command.fields) ?? request;
  } catch {
    return request;
  }
}

/** Steps 1 to 4 of `importHumanUser` for one item, with the claims it is compared by. Never rejects. */
async function prepareItem(run: Run, request: unknown): Promise<Prepared> {
  const prepared = await prepareCommand(run.ports, request, run.context, run.command);
  if (prepared.isErr()) return err(prepared.error);
  const { parsed: draft, organization } = prepared.value;
  return ok({ prepared: prepared.value, claims: [usernameClaim(draft.username, organization), ...draft.idpLinks.map(idpLinkClaim)] });
}

/**
 * Steps 5 and 6 for a checked item, once the stored holders of its batch's claims are known. A row
 * a stored user holds a claim of is already there or a conflict, never written: it is not decided,
 * so a re-run hashes no plain password and draws no id for the rows it finds. Never rejects.
 */
async function decideItem(run: Run, user: CheckedUser, stored: Result<ReadonlyMap<string, Holder>, ErrorBody>): Promise<ReadyUser> {
  const { parsed: draft, organization } = user.prepared;
  // A batch whose holders could not be looked up is answered with that error: nothing to decide either.
  if (stored.isErr() || user.claims.some((claim) => stored.value.has(claimKey(claim)))) {
    return { ...user, fingerprint: fingerprintsOf(draft, organization.id), decided: undefined };
  }
  let decided = await decideCommand(run.ports, user.prepared, 1);
  if (decided.isOk() && decided.value.append === undefined) decided = err(portFailure(new Error("an import decided to append nothing"), "bulk import", run.ports.logger));
  // The decision's added event carries the fingerprint already: a digest per row, not two (and
  // 0.2.0's rule only for a row that meets a holder with such a fingerprint).
  const added = decided.isOk() ? decided.value.append?.events[0]?.payload["importFingerprint"] : undefined;
  return { ...user, fingerprint: fingerprintsOf(draft, organization.id, typeof added === "string" ? added : undefined), decided };
}

/** The request field a claim of the row comes from. */
function fieldOf(request: RequestObject, claim: UniqueClaim): string {
  if (claim.kind !== "idp_link") return importUsernameField(request);
  const idps = request["idps"];
  const links = Array.isArray(idps) ? (idps as readonly unknown[]) : [];
  const at = links.findIndex((link) => {
    const { configId, externalUserId } = (typeof link === "object" && link !== null ? link : {}) as Readonly<Record<string, unknown>>;
    return typeof configId === "string" && typeof externalUserId === "string" && idpAccountKey({ idpId: configId, externalUserId }) === claim.key;
  });
  return `idps[${Math.max(at, 0)}].externalUserId`;
}

/** The answer of a row that is not new: already there, or a conflict naming the field and the holder. */
function notNewOutcome(index: number, user: ReadyUser, verdict: Exclude<Verdict, { kind: "new" }>): BulkImportOutcome {
  if (verdict.kind === "already-there") return { index, alreadyThere: verdict.holder };
  const kind = verdict.claim.kind === "idp_link" ? "idp_link" : "username";
  const conflict = { claim: kind, field: fieldOf(user.prepared.request, verdict.claim), ...verdict.holder } as const;
  return { index, error: alreadyExists(kind), conflict };
}

/**
 * The stored holders of every claim the chunk's users want, by claim key (one lookup for the
 * chunk, through `findClaimHolders` when the store has it, else one more per claim that is held);
 * an error when the store could not say.
 */
async function storedHolders(run: Run, prepared: readonly Prepared[]): Promise<Result<ReadonlyMap<string, Holder>, ErrorBody>> {
  const claims = new Map<string, UniqueClaim>();
  for (const item of prepared) if (item.isOk()) for (const claim of item.value.claims) claims.set(claimKey(claim), claim);
  const holders = new Map<string, Holder>();
  if (claims.size === 0) return ok(holders);
  const findClaimHolders = run.ports.userLog.findClaimHolders?.bind(run.ports.userLog);
  if (findClaimHolders !== undefined) return storedHoldersAtOnce(run, findClaimHolders, [...claims.values()]);
  let held: readonly UniqueClaim[];
  try {
    held = await run.ports.userLog.findHeldClaims([...claims.values()]);
  } catch (cause) {
    return err(portFailure(cause, "storage lookup of claims", run.ports.logger));
  }
  const found = await Promise.all(held.map((claim) => run.preparing.run(() => storedHolder(run.ports, run.context.requester, claim))));
  for (const [at, holder] of found.entries()) {
    if (holder.isErr()) return err(holder.error);
    const claim = held[at];
    if (claim !== undefined && holder.value !== undefined) holders.set(claimKey(claim), holder.value);
  }
  return ok(holders);
}

/** `storedHolders` in one call: each holder's events folded once, however many of its claims were asked. */
async function storedHoldersAtOnce(
  run: Run,
  findClaimHolders: NonNullable<UserLog["findClaimHolders"]>,
  claims: readonly UniqueClaim[],
): Promise<Result<ReadonlyMap<string, Holder>, ErrorBody>> {
  const found = await callPort("storage lookup of claim holders", run.ports.logger, () => findClaimHolders(claims));
  if (found.isErr()) return err(found.error);
  // Each holder once, its visibility asked of the authorizer beside the others' (an authorizer that
  // answers over the network must not be asked one holder after another).
  const eventsByUser = new Map<string, readonly StoredEvent[]>();
  for (const { userId, events } of found.value) if (!eventsByUser.has(userId)) eventsByUser.set(userId, events);
  // An authorizer that answers at once (the default one) is asked in the loop, without a promise
  // per holder; once one answers with a promise, the rest are asked through the concurrency limit.
  const byUser = new Map<string, Holder>();
  const waiting: Promise<void>[] = [];
  let answersLater = false;
  for (const [userId, events] of eventsByUser) {
    if (answersLater) {
      waiting.push(run.preparing.run(async () => void byUser.set(userId, await storedUserHolder(run.ports, run.context.requester, userId, events))));
      continue;
    }
    const holder = storedUserHolder(run.ports, run.context.requester, userId, events);
    if (holder instanceof Promise) {
      answersLater = true;
      waiting.push(holder.then((settled) => void byUser.set(userId, settled)));
    } else byUser.set(userId, holder);
  }
  await Promise.all(waiting);
  const holders = new Map<string, Holder>();
  for (const { claim, userId } of found.value) {
    const holder = byUser.get(userId);
    if (holder !== undefined) holders.set(claimKey(claim), holder);
  }
  return ok(holders);
}

/** The row's clashes: with an earlier row of the source first, else with a stored user. */
function clashesOf(run: Run, user: ReadyUser, stored: ReadonlyMap<string, Holder>): Clash[] {
  return user.claims.flatMap((claim) => {
    const holder = run.sourceClaims.find(claim) ?? stored.get(claimKey(claim));
    return holder === undefined ? [] : [{ claim, holder }];
  });
}

/**
 * A row the store refused for a claim another user took meanwhile (another process): already
 * there or a conflict, as the holder says.
 */
async function heldAtWrite(run: Run, index: number, user: ReadyUser, claim: UniqueClaim): Promise<BulkImportOutcome> {
  const holder = await storedHolder(run.ports, run.context.requester, claim);
  if (holder.isErr()) return { index, error: holder.error };
  const verdict = judge(user.fingerprint, holder.value === undefined ? [] : [{ claim, holder: holder.value }]);
  return verdict.kind === "new" ? { index, error: alreadyExists(claim.kind) } : notNewOutcome(index, user, verdict);
}

/**
 * Hands over the user's notifications and makes its body once the store has answered its append;
 * an append that must be decided again (a generated id taken meanwhile) goes on as `importHumanUser` would.
 */
function answerWritten(run: Run, index: number, user: ReadyUser, decided: Decided<ImportHumanUserResponse>, written: WriteAnswer | undefined): Promise<BulkImportOutcome> {
  if (written === undefined) return Promise.resolve({ index, error: portFailure(new Error("no answer for a write"), "bulk import", run.ports.logger) });
  if (written.isErr()) return Promise.resolve({ index, error: written.error });
  const outcome = written.value;
  if (!outcome.ok && outcome.reason === "claim-held" && outcome.conflict.kind !== "user_id") return heldAtWrite(run, index, user, outcome.conflict);
  return run.finishing.run(async () => {
    const finish = await finishCommand(run.ports, run.runtime, decided, outcome);
    if (!finish.retry) return outcomeOf(index, finish.answer);
    // Decided again: its new answer is kept before its write too.
    const { beforeWrite } = run;
    const keepAnswer = beforeWrite === undefined ? undefined : (answer: ImportHumanUserResponse) => beforeWrite([{ index, answer }]);
    return outcomeOf(index, await continueCommand(run.ports, run.runtime, user.prepared, 2, undefined, keepAnswer));
  });
}

/** A failure a re-run may not meet again (the store or a port failed, a race was lost), unlike a refusal of the row itself. */
function isPassing(error: ErrorBody): boolean {
  return error.code === 10 || error.code === 13 || error.code === 14;
}

/**
 * The answer of a row that failed before its write for a passing reason, its claims held against
 * the later rows as if it had been written and failed there: a later person wanting its username
 * is a conflict with it, and the same person fails with its error. A re-run then imports this row
 * first, as a clean run would have.
 */
function heldForRerun(run: Run, index: number, user: ReadyUser, error: ErrorBody): BulkImportOutcome {
  run.sourceClaims.add(user.claims, index, user.fingerprint);
  run.failedWrites.set(index, error);
  return { index, error };
}

/** What is to become of each row of a chunk, decided in input order. */
type Plan = { readonly outcome: BulkImportOutcome } | { readonly write: { readonly user: ReadyUser; readonly decided: Decided<ImportHumanUserResponse> } };

/** Judges the chunk's rows in input order against the source's earlier rows and the stored users, keeping the ones to write. */
function planChunk(run: Run, chunk: Chunk, ready: readonly Ready[], stored: Result<ReadonlyMap<string, Holder>, ErrorBody>): Plan[] {
  return ready.map((item, offset): Plan => {
    const index = chunk.firstIndex + offset;
    if (item.isErr()) return { outcome: { index, error: item.error } };
    const user = item.value;
    if (stored.isErr()) return { outcome: heldForRerun(run, index, user, stored.error) };
    const verdict = judge(user.fingerprint, clashesOf(run, user, stored.value));
    if (verdict.kind !== "new") return { outcome: notNewOutcome(index, user, verdict) };
    // Undecided only when a stored user holds one of its claims, which the verdict cannot call new.
    if (user.decided === undefined) return { outcome: heldForRerun(run, index, user, portFailure(new Error("a new row was not decided"), "bulk import", run.ports.logger)) };
    if (user.decided.isErr()) {
      const error = user.decided.error;
      return { outcome: isPassing(error) ? heldForRerun(run, index, user, error) : { index, error } };
    }
    run.sourceClaims.add(user.claims, index, user.fingerprint);
    return run.dryRun ? { outcome: { index, wouldImport: true } } : { write: { user, decided: user.decided.value } };
  });
}

/** Judges the chunk's rows when their turn comes, writes the new ones in one batch, and answers every row in order; never rejects. */
async function finishChunk(run: Run, chunk: Chunk): Promise<BulkImportOutcome[]> {
  const previous = run.judged;
  let judged = (): void => undefined;
  run.judged = new Promise<void>((resolve) => (judged = resolve));
  let plans: Plan[];
  try {
    const prepared = await Promise.all(chunk.preparations);
    const stored = await storedHolders(run, prepared);
    const ready = await Promise.all(
      prepared.map((item): Ready | Promise<Ready> => (item.isErr() ? err(item.error) : run.preparing.run(async () => ok(await decideItem(run, item.value, stored))))),
    );
    await previous;
    plans = planChunk(run, chunk, ready, stored);
  } catch (cause) {
    const failure = portFailure(cause, "bulk import", run.ports.logger);
    return chunk.preparations.map((_, offset) => ({ index: chunk.firstIndex + offset, error: failure }));
  } finally {
    judged();
  }
  // Nobody will read these answers any more: nothing is written for them.
  if (run.closed) return [];
  try {
    const writes = plans.flatMap((plan) => ("write" in plan ? [plan.write] : []));
    if (run.beforeWrite !== undefined && writes.length > 0) await run.beforeWrite(batchAnswers(chunk, plans));
    const written = await writeBatch(run.ports, run.userLog, writes.flatMap(({ decided }) => (decided.append === undefined ? [] : [decided.append])));
    let writeIndex = 0;
    const outcomes = await Promise.all(
      plans.map((plan, offset) =>
        "outcome" in plan ? plan.outcome : answerWritten(run, chunk.firstIndex + offset, plan.write.user, plan.write.decided, written[writeIndex++]),
      ),
    );
    for (const [offset, plan] of plans.entries()) {
      const outcome = outcomes[offset];
      if ("write" in plan && outcome !== undefined && "error" in outcome) run.failedWrites.set(outcome.index, outcome.error);
    }
    return outcomes;
  } catch (cause) {
    const failure = portFailure(cause, "bulk import", run.ports.logger);
    return plans.map((plan, offset) => {
      const index = chunk.firstIndex + offset;
      if ("write" in plan) run.failedWrites.set(index, failure);
      return { index, error: failure };
    });
  }
}

/** The answers the chunk's new users get if their batch is written as decided. */
function batchAnswers(chunk: Chunk, plans: readonly Plan[]): BatchAnswer[] {
  const answers: BatchAnswer[] = [];
  for (const [offset, plan] of plans.entries()) {
    if (!("write" in plan)) continue;
    const { decision, facts } = plan.write.decided;
    let answer: Result<ImportHumanUserResponse, ErrorBody>;
    try {
      answer = decision.respond(facts);
    } catch {
      // Its outcome answers 13 after the write, as for any row whose answer cannot be made.
      continue;
    }
    if (answer.isOk()) answers.push({ index: chunk.firstIndex + offset, answer: answer.value });
  }
  return answers;
}

/** What telemetry sees of an outcome: what it was, and its error. */
function rowAnswer(outcome: BulkImportOutcome): BatchRowAnswer {
  if ("ok" in outcome) return { outcome: "imported" };
  if ("alreadyThere" in outcome) return { outcome: "already_there" };
  if ("wouldImport" in outcome) return { outcome: "would_import" };
  return { outcome: "failed", error: outcome.error };
}

/**
 * A row judged the same user as an earlier row of the source, once that row's fate is known: still
 * already there when that row was written, else failed with its error.
 */
function settled(run: Run, outcome: BulkImportOutcome): BulkImportOutcome {
  if (!("alreadyThere" in outcome) || !("earlierIndex" in outcome.alreadyThere)) return outcome;
  const { earlierIndex } = outcome.alreadyThere;
  const error = run.failedWrites.get(earlierIndex);
  return error === undefined ? outcome : { index: outcome.index, error, sameUserAs: { earlierIndex } };
}

interface Settings {
  readonly batchSize: number;
  readonly concurrency: number;
  readonly parallelBatches: number;
  readonly dryRun: boolean;
  readonly withoutCodes: boolean;
  readonly signal: StopSignal | undefined;
  readonly beforeWrite: BulkImportOptions["beforeWrite"];
}

/** The options over their defaults: options that are not an object are none, a member that is no usable number its default. */
function settingsOf(options: unknown): Settings {
  const given = typeof options === "object" && options !== null ? (options as Readonly<Record<string, unknown>>) : {};
  const number = (value: unknown) => (typeof value === "number" ? value : undefined);
  const signal = given["signal"];
  const beforeWrite = given["beforeWrite"];
  return {
    batchSize: wholeNumber(number(given["batchSize"]), defaultBulkImportOptions.batchSize),
    concurrency: wholeNumber(number(given["concurrency"]), defaultBulkImportOptions.concurrency),
    parallelBatches: wholeNumber(number(given["parallelBatches"]), defaultBulkImportOptions.parallelBatches),
    // Anything but false (or nothing) checks without writing: a mistyped dry run must not import.
    dryRun: given["dryRun"] !== undefined && given["dryRun"] !== null && given["dryRun"] !== false,
    withoutCodes: given["withoutCodes"] === true,
    signal: typeof signal === "object" && signal !== null ? (signal as StopSignal) : undefined,
    beforeWrite: typeof beforeWrite === "function" ? (beforeWrite as BulkImportOptions["beforeWrite"]) : undefined,
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
    // Over the ports as resolved (cached, and traced when there is telemetry): resolving them again
    // would wrap each lookup in a second span of the same name, and each hash too.
    const lookups = bulkLookups(host.directory, host.userLog);
    const withLookups: ResolvedPorts = { ...host, directory: lookups.directory, userLog: lookups.userLog, storage: { ...host.storage, directory: lookups.directory, userLog: lookups.userLog } };
    return ok({
      ports: withLookups,
      runtime,
      userLog: host.userLog,
      context,
      command: settings.withoutCodes ? importWithoutCodesCommand : importHumanUserCommand,
      batchSize: settings.batchSize,
      preparing: limiter(settings.concurrency),
      finishing: limiter(settings.concurrency),
      signal: settings.signal,
      parallelBatches: settings.parallelBatches,
      dryRun: settings.dryRun,
      beforeWrite: settings.beforeWrite,
      sourceClaims: new SourceClaims(),
      failedWrites: new Map(),
      judged: Promise.resolve(),
      closed: false,
      aborted: abortOf(settings.signal),
      abandonedRead: false,
    });
  } catch (cause) {
    return err(portFailure(cause, "bulk import", host.logger));
  }
}

/**
 * The bulk import behind `importHumanUsers` (src/operations, where its answers are documented):
 * batches read ahead, users checked in parallel, judged in input order, written batch by batch.
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
    const inFlight: Promise<readonly BulkImportOutcome[]>[] = [];
    let reading: Promise<Chunk> | undefined = readChunk(run, items, 0);
    // Each batch's rows are final once the batches before it are: a row judged the same user as an
    // earlier row fails if that row's write did (see `settled`).
    let earlier: Promise<unknown> = Promise.resolve();
    while (reading !== undefined || inFlight.length > 0) {
      if (reading !== undefined && inFlight.length < run.parallelBatches) {
        const chunk: Chunk = await reading;
        reading = chunk.last ? undefined : readChunk(run, items, chunk.firstIndex + chunk.preparations.length);
        // A source that ends on a batch's edge leaves an empty last chunk: nothing to do, no span.
        if (chunk.preparations.length === 0 && chunk.sourceFailure === undefined) continue;
        const before = earlier;
        const batch = traceBatch(
          run.ports.telemetry,
          "importHumanUsers",
          async () => {
            const outcomes = await finishChunk(run, chunk);
            await before;
            return (chunk.sourceFailure === undefined ? outcomes : [...outcomes, chunk.sourceFailure]).map((outcome) => settled(run, outcome));
          },
          rowAnswer,
        );
        earlier = batch.catch(() => undefined);
        inFlight.push(batch);
      } else yield* (await inFlight.shift()) ?? [];
    }
  } finally {
    run.closed = true;
    try {
      const closing = items.return?.();
      // A source still in the `next()` an abort gave up on closes once that settles, which may be
      // never: it is asked to close, and not waited for.
      if (run.abandonedRead) Promise.resolve(closing).catch(() => undefined);
      else await closing;
    } catch {
      // A source that fails to close has nothing more to give.
    }
  }
}
