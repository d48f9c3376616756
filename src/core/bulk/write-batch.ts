import { err, ok, type Result } from "neverthrow";
import type { AppendOutcome, Storage, UserWrite } from "../../ports/storage.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { callPort, portFailure } from "../commands/port-call.js";
import type { ResolvedPorts } from "../resolved-ports.js";

export type WriteAnswer = Result<AppendOutcome, ErrorBody>;

async function oneByOne(ports: ResolvedPorts, storage: Storage, writes: readonly UserWrite[]): Promise<WriteAnswer[]> {
  const answers: WriteAnswer[] = [];
  // In input order, one at a time: of two writes holding one claim, the first wins.
  for (const write of writes) answers.push(await callPort("storage write", ports.logger, () => storage.appendUser(write)));
  return answers;
}

/**
 * The store's answer to each of `writes`, in order: one `appendUsers` call when the store offers
 * it, else one `appendUser` call each. A batch that is refused (a refused batch writes nothing)
 * for any reason but an unreachable store is written again one write at a time, so that one bad
 * write fails only itself.
 */
export async function writeBatch(ports: ResolvedPorts, storage: Storage, writes: readonly UserWrite[]): Promise<WriteAnswer[]> {
  if (writes.length === 0) return [];
  const appendUsers = storage.appendUsers?.bind(storage);
  if (appendUsers === undefined) return oneByOne(ports, storage, writes);
  const batch = await callPort("storage batch write", ports.logger, () => appendUsers(writes));
  if (batch.isErr()) return batch.error.code === 14 ? writes.map(() => err(batch.error)) : oneByOne(ports, storage, writes);
  if (batch.value.length === writes.length) return batch.value.map((outcome) => ok(outcome));
  // What such a store wrote is unknown, so nothing is written again.
  const failure = portFailure(new Error(`appendUsers answered ${batch.value.length} outcomes for ${writes.length} writes`), "storage batch write", ports.logger);
  return writes.map(() => err(failure));
}
