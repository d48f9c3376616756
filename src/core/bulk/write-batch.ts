import { err, ok, type Result } from "neverthrow";
import type { AppendOutcome, UserAppend, UserLog } from "../../ports/user-log.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { callPort, portFailure } from "../commands/port-call.js";
import type { ResolvedPorts } from "../resolved-ports.js";

export type WriteAnswer = Result<AppendOutcome, ErrorBody>;

async function oneByOne(ports: ResolvedPorts, userLog: UserLog, appends: readonly UserAppend[]): Promise<WriteAnswer[]> {
  const answers: WriteAnswer[] = [];
  // In input order, one at a time: of two appends holding one claim, the first wins.
  for (const request of appends) answers.push(await callPort("storage write", ports.logger, () => userLog.append(request)));
  return answers;
}

/**
 * The store's answer to each of `appends` (new users), in order: one `appendNewUsers` call when
 * the user log offers it, else one `append` call each. A batch that is refused (a refused batch
 * writes nothing) for any reason but an unreachable store is written again one append at a time,
 * so that one bad append fails only itself.
 */
export async function writeBatch(ports: ResolvedPorts, userLog: UserLog, appends: readonly UserAppend[]): Promise<WriteAnswer[]> {
  if (appends.length === 0) return [];
  const appendNewUsers = userLog.appendNewUsers?.bind(userLog);
  if (appendNewUsers === undefined) return oneByOne(ports, userLog, appends);
  const batch = await callPort("storage batch write", ports.logger, () => appendNewUsers(appends));
  if (batch.isErr()) return batch.error.code === 14 ? appends.map(() => err(batch.error)) : oneByOne(ports, userLog, appends);
  if (batch.value.length === appends.length) return batch.value.map((outcome) => ok(outcome));
  // What such a store wrote is unknown, so nothing is written again.
  const failure = portFailure(new Error(`appendNewUsers answered ${batch.value.length} outcomes for ${appends.length} appends`), "storage batch write", ports.logger);
  return appends.map(() => err(failure));
}
