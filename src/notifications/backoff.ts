import type { RandomSource } from "../ports/random-source.js";
import type { ResolvedDeliverySettings } from "./settings.js";

/**
 * A uniform number in [0, 1) from the random source; 1 (no jitter: the whole nominal delay) when
 * the source fails. A broken source costs the spread of retries, never the record of the failure:
 * a failure left unrecorded would never count towards maxAttempts, and the mail would be retried
 * for good.
 */
function unitInterval(random: RandomSource): number {
  try {
    const bytes = random.fill(new Uint8Array(4));
    return new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0) / 2 ** 32;
  } catch {
    return 1;
  }
}

/**
 * The wait before the next attempt after `failures` failed ones: exponential, capped, and jittered
 * into its upper half ("equal jitter") so that a crowd of messages that failed together (a mail
 * server outage) spreads out, while no retry comes sooner than half the nominal delay.
 */
export function retryDelayMs(failures: number, settings: ResolvedDeliverySettings, random: RandomSource): number {
  const nominal = Math.min(
    settings.maxBackoffSeconds,
    settings.initialBackoffSeconds * 2 ** Math.max(0, failures - 1),
  );
  return Math.round((nominal / 2 + (nominal / 2) * unitInterval(random)) * 1000);
}
