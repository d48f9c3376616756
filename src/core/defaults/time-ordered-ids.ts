import type { IdGenerator } from "../../ports/id-generator.js";
import type { RandomSource } from "../../ports/random-source.js";
import { webCryptoRandom } from "../../shared/web-crypto-random.js";

const EPOCH_MS = 1_577_836_800_000; // 2020-01-01T00:00:00Z
// A leading 1, 13 digits of milliseconds (until the year 2336), 20 digits for the millisecond's ids:
// every id has 34 digits, so ids sort the same as text and as numbers.
const BASE = 10n ** 33n;
const PER_MS = 10n ** 20n;
const RANDOM_BYTES = 8;

/**
 * 34-digit decimal ids that sort by creation time: a 1, the milliseconds since 2020 in 13 digits,
 * then 20 digits that start at a 64-bit random value each new millisecond and count up. Processes
 * that share a database draw their own starts, so two of them meet with odds of about n² / 2^64
 * for n ids in one millisecond: 18 digits (a start under 10,000) met every few thousand
 * milliseconds under load. Strictly increasing within a process, also when the clock goes back.
 */
export function timeOrderedIds(random: RandomSource = webCryptoRandom, now: () => number = Date.now): IdGenerator {
  let last = 0n;
  let lastMs = -1;
  const start = new Uint8Array(RANDOM_BYTES);
  return {
    next() {
      const ms = now();
      if (ms !== lastMs) {
        lastMs = ms;
        random.fill(start);
        let offset = 0n;
        for (const byte of start) offset = (offset << 8n) | BigInt(byte);
        const first = BASE + BigInt(ms - EPOCH_MS) * PER_MS + offset;
        if (first > last) {
          last = first;
          return last.toString();
        }
      }
      last += 1n;
      return last.toString();
    },
  };
}
