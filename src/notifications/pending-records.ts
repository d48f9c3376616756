import type { Storage } from "../ports/storage.js";

/** A store's operations in flight, and the delivery records not yet written. */
interface InFlight {
  operations: number;
  readonly records: Set<Promise<void>>;
}

// By the store the host gave (`ports.storage`): every operation on it counts, whatever ports object it came in.
const byStorage = new WeakMap<Storage, InFlight>();

function inFlightOn(storage: Storage): InFlight {
  let state = byStorage.get(storage);
  if (state === undefined) byStorage.set(storage, (state = { operations: 0, records: new Set() }));
  return state;
}

/**
 * An operation on `storage` begins; the function returned ends it. While operations run, a
 * delivery made right after a write is recorded without its caller waiting (`deferRecord`): the
 * record rides in a write on its way, or goes with other callers' records in one statement. The
 * last operation to end waits for every record still on its way, so that once all the operations
 * a host started have answered, every delivery they made is recorded (or its failure logged), and
 * the host may end its database. Callers that each waited for their own record would move in
 * step: a write and a record statement each, in turn.
 */
export function beginOperation(storage: Storage): () => Promise<void> | undefined {
  const state = inFlightOn(storage);
  state.operations += 1;
  let ended = false;
  return () => {
    if (ended) return undefined;
    ended = true;
    state.operations -= 1;
    if (state.operations > 0 || state.records.size === 0) return undefined;
    // Taken over by this operation alone: a record that never settles holds this one answer, as it
    // held its own operation's before, not every operation that ends last after it. Records given
    // later belong to operations that begin later, and the last of them waits for those.
    const waiting = [...state.records];
    state.records.clear();
    return Promise.all(waiting).then(() => undefined);
  };
}

/**
 * Keeps `record` (which never rejects) for the last operation on `storage` to wait for; false, and
 * nothing kept, when no operation runs on it (a round the host runs itself waits for its own).
 */
export function deferRecord(storage: Storage, record: Promise<void>): boolean {
  const state = byStorage.get(storage);
  if (state === undefined || state.operations === 0) return false;
  state.records.add(record);
  void record.then(() => state.records.delete(record));
  return true;
}
