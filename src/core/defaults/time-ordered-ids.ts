import type { IdGenerator } from "../../ports/id-generator.js";
import type { RandomSource } from "../../ports/random-source.js";
import { webCryptoRandom } from "../../shared/web-crypto-random.js";

const EPOCH_MS = 1_577_836_800_000; // 2020-01-01T00:00:00Z
const BASE = 100_000_000_000_000_000n; // keeps every id at 18 digits
const PER_MS = 100_000n;
const RANDOM_START = 10_000;

/**
 * 18-digit decimal ids that sort by creation time: milliseconds since 2020 times 100,000, plus a
 * counter that starts at a random offset each new millisecond, so two processes rarely meet (and
 * a meeting is caught by the user-id claim). Strictly increasing within a process.
 */
export function timeOrderedIds(random: RandomSource = webCryptoRandom, now: () => number = Date.now): IdGenerator {
  let last = 0n;
  let lastMs = -1;
  const offset = new Uint16Array(1);
  return {
    next() {
      const ms = now();
      if (ms !== lastMs) {
        lastMs = ms;
        random.fill(new Uint8Array(offset.buffer));
        const start = BASE + BigInt(ms - EPOCH_MS) * PER_MS + BigInt((offset[0] ?? 0) % RANDOM_START);
        if (start > last) {
          last = start;
          return last.toString();
        }
      }
      last += 1n;
      return last.toString();
    },
  };
}
