import { err, ok, type Result } from "neverthrow";
import type { AppendOutcome, UserAppend, UserLog } from "../../ports/user-log.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { sameClaim, userIdClaim } from "../claims.js";
import { callPort, portFailure } from "../commands/port-call.js";
import { unavailable } from "../errors/user-errors.js";
import type { ResolvedPorts } from "../resolved-ports.js";

export type WriteAnswer = Result<AppendOutcome, ErrorBody>;

/**
 * Unavailable answers in a row after which the rest of a batch is not tried: a store that is down,
 * or a table every user waits on, would otherwise cost one timeout per user.
 */
export const UNAVAILABLE_IN_A_ROW = 3;

/**
 * `appends` written one at a time, in input order: of two appends holding one claim, the first
 * wins. `capped`: after a batch the database cancelled, stop trying after UNAVAILABLE_IN_A_ROW.
 */
async function oneByOne(ports: ResolvedPorts, userLog: UserLog, appends: readonly UserAppend[], capped = false): Promise<WriteAnswer[]> {
  const answers: WriteAnswer[] = [];
  const limit = capped ? UNAVAILABLE_IN_A_ROW : Number.POSITIVE_INFINITY;
  let unavailableInARow = 0;
  for (const request of appends) {
    const answer: WriteAnswer =
      unavailableInARow >= limit ? err(unavailable()) : await callPort("storage write", ports.logger, () => userLog.append(request));
    unavailableInARow = answer.isErr() && answer.error.code === 14 ? unavailableInARow + 1 : 0;
    answers.push(answer);
  }
  return answers;
}

/**
 * Whether a store's failure is known to have written nothing (`StorageUnavailableError`'s
 * `nothingWritten`, read by name: a second copy of the package has its own class).
 */
function wroteNothing(cause: unknown): boolean {
  return cause instanceof Error && cause.name === "StorageUnavailableError" && (cause as { readonly nothingWritten?: unknown }).nothingWritten === true;
}

/**
 * After a batch whose connection failed with its outcome unknown (the commit may have gone through
 * while its answer was lost): the batch is written whole or not at all, so when every one of its
 * users' ids is held, it was written, and its users are answered as written instead of "failed"
 * (they were, and their mails are queued). Otherwise, or when the store cannot be asked either,
 * each keeps the 14.
 */
async function landedAnyway(ports: ResolvedPorts, userLog: UserLog, appends: readonly UserAppend[], failure: ErrorBody): Promise<WriteAnswer[]> {
  const ids = appends.map((append) => userIdClaim(append.userId));
  const held = await callPort("storage lookup of claims", ports.logger, () => userLog.findHeldClaims(ids));
  const landed = held.isOk() && ids.every((id) => held.value.some((claim) => sameClaim(claim, id)));
  // Leased or not, the mails were written: a worker sends them once any lease of the write is over.
  return appends.map(() => (landed ? ok({ ok: true }) : err(failure)));
}

/**
 * The store's answer to each of `appends` (new users), in order: one `appendNewUsers` call when
 * the user log offers it, else one `append` call each. A batch that is refused (a refused batch
 * writes nothing) is written again one append at a time, so that one bad append fails only itself:
 * also when the database cancelled it for time (one user waiting on another transaction's lock
 * held up the whole batch); there, after UNAVAILABLE_IN_A_ROW users in a row fail with 14, the rest
 * of the batch answers 14 without being tried (nothing of theirs is written). An unreachable
 * store, with what it wrote unknown, fails them all.
 */
export async function writeBatch(ports: ResolvedPorts, userLog: UserLog, appends: readonly UserAppend[]): Promise<WriteAnswer[]> {
  if (appends.length === 0) return [];
  const appendNewUsers = userLog.appendNewUsers?.bind(userLog);
  if (appendNewUsers === undefined) return oneByOne(ports, userLog, appends);
  let cause: unknown;
  const batch = await callPort("storage batch write", ports.logger, () =>
    Promise.resolve(appendNewUsers(appends)).catch((error: unknown) => {
      cause = error;
      throw error;
    }),
  );
  if (batch.isErr()) {
    if (batch.error.code !== 14) return oneByOne(ports, userLog, appends);
    return wroteNothing(cause) ? oneByOne(ports, userLog, appends, true) : landedAnyway(ports, userLog, appends, batch.error);
  }
  if (batch.value.length === appends.length) return batch.value.map((outcome) => ok(outcome));
  // What such a store wrote is unknown, so nothing is written again.
  const failure = portFailure(new Error(`appendNewUsers answered ${batch.value.length} outcomes for ${appends.length} appends`), "storage batch write", ports.logger);
  return appends.map(() => err(failure));
}
