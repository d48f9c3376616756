import type { Storage } from "../ports/storage.js";

/** A store's commands in flight, and the delivery records not yet written. */
interface InFlight {
  commands: number;
  readonly records: Set<Promise<void>>;
}

// By the store the host gave (`ports.storage`): every command on it counts, whatever ports object it came in.
const byStorage = new WeakMap<Storage, InFlight>();

function inFlightOn(storage: Storage): InFlight {
  let state = byStorage.get(storage);
  if (state === undefined) byStorage.set(storage, (state = { commands: 0, records: new Set() }));
  return state;
}

/**
 * A command on `storage` begins; the function returned ends it. While commands run, a delivery
 * made right after a write is recorded without its caller waiting (`deferRecord`): the record
 * goes with other callers' records in one statement. The last command to end waits for every record still on its way, so that once all the commands a host
 * started have answered, every delivery they made is recorded (or its failure logged), and the
 * host may end its database. A command counts from its first write (`runCommand`): a read, or a
 * refused request, neither counts nor waits. Callers that each waited for their own record would
 * move in step: a write and a record statement each, in turn.
 */
export function beginCommand(storage: Storage): () => Promise<void> | undefined {
  const state = inFlightOn(storage);
  state.commands += 1;
  let ended = false;
  return () => {
    if (ended) return undefined;
    ended = true;
    state.commands -= 1;
    if (state.commands > 0 || state.records.size === 0) return undefined;
    // Taken over by this command alone: a record that never settles holds this one answer, as it
    // held its own command's before, not every command that ends last after it. Records given
    // later belong to commands that begin later, and the last of them waits for those.
    const waiting = [...state.records];
    state.records.clear();
    return Promise.all(waiting).then(() => undefined);
  };
}

/**
 * Keeps `record` (which never rejects) for the last command on `storage` to wait for; false, and
 * nothing kept, when no command runs on it (a round the host runs itself waits for its own).
 */
export function deferRecord(storage: Storage, record: Promise<void>): boolean {
  const state = byStorage.get(storage);
  if (state === undefined || state.commands === 0) return false;
  state.records.add(record);
  void record.then(() => state.records.delete(record));
  return true;
}
