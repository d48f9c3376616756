import { claimKey } from "../../core/claims.js";
import type { UserAppend } from "../../ports/storage.js";

/** What the grouping needs from the store. */
export interface GroupWriter {
  /** Writes every append as one statement, all or nothing; rejects when the database refused it. */
  writeGroup(appends: readonly UserAppend[]): Promise<void>;
  /**
   * Whether `error`, from `writeGroup`, is one the writes, each written alone, would answer (a claim
   * held, a stream taken, one write the database cannot take), not the database's own failure.
   */
  isRefusal(error: unknown): boolean;
}

export interface GroupingOptions {
  /** Writes on their way at once, alone or grouped, before later ones wait to go as a group. */
  readonly inFlight: number;
  /** Writes in one group, at most. */
  readonly maxGroup: number;
  /**
   * A write on its way longer than this gives its place up: one waiting on a lock (a claim another
   * transaction holds) must not hold back the writes behind it.
   */
  readonly slowAfterMs: number;
}

/**
 * A place to go alone, or the sign that the write was written in a group. `done` gives the place
 * back (once; later calls do nothing).
 */
export type Entry = { readonly outcome: "alone"; readonly done: () => void } | { readonly outcome: "written" };

/** New users' writes on their way to the database, grouped while it is busy. */
export interface GroupedWrites {
  /** Waits for a place (see Entry). */
  enter(append: UserAppend): Promise<Entry>;
}

/**
 * New users' writes, grouped while the database is busy, as a database groups commits: at most
 * `inFlight` writes (alone or grouped) are on their way at once; a write arriving when that many are
 * waits, and goes with the others that arrive meanwhile as one statement when a place is free.
 * Alone, or under light load, a write goes at once (`"alone"`): the caller writes it as it would
 * without grouping. A group the database refuses (one of its users lost a claim or a race, or wrote
 * something the database cannot take) answers `"alone"` to each of its writes, which then learn why
 * one by one; a failure of the database itself (gone, out of time) rejects each of them. Two writes
 * wanting the same claim never share a group: the later one waits for the next.
 */
export function groupedNewUserWrites(writer: GroupWriter, options: GroupingOptions): GroupedWrites {
  interface Waiting {
    readonly append: UserAppend;
    readonly keys: readonly string[];
    readonly settle: (entry: Entry) => void;
    readonly fail: (error: unknown) => void;
  }
  let busy = 0;
  const queue: Waiting[] = [];
  const nothing = (): void => undefined;

  /** Takes a place; the function returned gives it back, when the write ends or has been slow. */
  function takePlace(): () => void {
    busy += 1;
    let held = true;
    const giveBack = (): void => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      busy -= 1;
      startNext();
    };
    const timer: ReturnType<typeof setTimeout> = setTimeout(giveBack, options.slowAfterMs);
    // A timer must not keep a Node process alive (elsewhere `unref` does not exist).
    (timer as { unref?: () => void }).unref?.();
    return giveBack;
  }

  /** The first waiting writes that share no claim, up to maxGroup, taken out of the queue. */
  function nextGroup(): Waiting[] {
    const wanted = new Set<string>();
    const group: Waiting[] = [];
    for (let index = 0; index < queue.length && group.length < options.maxGroup; ) {
      const waiting = queue[index] as Waiting;
      if (waiting.keys.some((key) => wanted.has(key))) {
        index += 1;
        continue;
      }
      for (const key of waiting.keys) wanted.add(key);
      group.push(waiting);
      queue.splice(index, 1);
    }
    return group;
  }

  function startNext(): void {
    while (busy < options.inFlight && queue.length > 0) {
      const group = nextGroup();
      const giveBack = takePlace();
      if (group.length === 1) {
        (group[0] as Waiting).settle({ outcome: "alone", done: giveBack });
        continue;
      }
      writer.writeGroup(group.map((waiting) => waiting.append)).then(
        () => {
          giveBack();
          for (const waiting of group) waiting.settle({ outcome: "written" });
        },
        (error: unknown) => {
          giveBack();
          const refused = writer.isRefusal(error);
          // Written alone after the refusal, they hold no place: the group's is given back.
          for (const waiting of group) {
            if (refused) waiting.settle({ outcome: "alone", done: nothing });
            else waiting.fail(error);
          }
        },
      );
    }
  }

  return {
    enter(append) {
      if (busy < options.inFlight && queue.length === 0) return Promise.resolve({ outcome: "alone", done: takePlace() });
      return new Promise<Entry>((resolve, reject) => {
        queue.push({ append, keys: append.claims.map(claimKey), settle: resolve, fail: reject });
        startNext();
      });
    },
  };
}
