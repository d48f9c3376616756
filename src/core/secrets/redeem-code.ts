import type { Keys } from "../../ports/keys.js";
import type { PendingCode } from "../users/user-state.js";
import { codeMatches } from "./codes.js";

/** Wrong tries a code survives: after the fifth, even the right code is refused and a new one must be asked for. */
export const MAX_CODE_ATTEMPTS = 5;

/**
 * What a code a caller gives is, against the one the user has: `missing` (none issued, or used),
 * `exhausted` (tried wrongly too often), `expired`, `wrong`, or `ok`. Only `wrong` is a try worth
 * recording; the others change nothing.
 */
export type CodeRedemption = "ok" | "missing" | "exhausted" | "expired" | "wrong";

export function redeemCode(pending: PendingCode | undefined, code: string, now: Date, keys: Keys): CodeRedemption {
  if (pending === undefined) return "missing";
  if (pending.failedAttempts >= MAX_CODE_ATTEMPTS) return "exhausted";
  if (now.getTime() >= Date.parse(pending.expiresAt)) return "expired";
  return codeMatches(code, pending.hash, keys) ? "ok" : "wrong";
}
