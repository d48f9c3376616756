import type { UniqueClaim } from "../../ports/user-log.js";
import { claimKey } from "../claims.js";

interface Writing {
  readonly keys: ReadonlySet<string>;
  readonly done: Promise<void>;
}

function shares(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const key of small) if (large.has(key)) return true;
  return false;
}

/**
 * Lets batches be written at the same time where that cannot change any answer: a batch waits for
 * every earlier batch still being written that wants one of its claims, so the first in input
 * order still wins. Batches are admitted in the order `admit` is called.
 */
export interface WriteOrder {
  /** Resolves, once the batch may be written, to the function that says its write is over. */
  admit(claims: Promise<readonly UniqueClaim[]>): Promise<() => void>;
}

export function writeOrder(): WriteOrder {
  let lastTurn: Promise<unknown> = Promise.resolve();
  const writing = new Set<Writing>();
  return {
    admit(claims) {
      const turn = lastTurn.then(async () => {
        const keys = new Set((await claims).map(claimKey));
        const blockers = [...writing].filter((other) => shares(other.keys, keys)).map((other) => other.done);
        let finished = (): void => undefined;
        const entry: Writing = { keys, done: new Promise<void>((resolve) => (finished = resolve)) };
        writing.add(entry);
        const over = (): void => {
          writing.delete(entry);
          finished();
        };
        return { blockers, over };
      });
      lastTurn = turn.catch(() => undefined);
      return turn.then(async ({ blockers, over }) => {
        await Promise.all(blockers);
        return over;
      });
    },
  };
}
