import type { Keys } from "../../ports/keys.js";
import type { PendingCode } from "../users/user-state.js";
import { codeMatches } from "./codes.js";

/** Wrong attempts a code survives: the fifth wrong one is the last, then the code is dead. */
export const MAX_CODE_ATTEMPTS = 5;

/**
 * What a code check found, in the order it is checked: no code pending; a code killed by wrong
 * attempts; a code past its own expiry (never compared); a wrong code; the right one.
 */
export type CodeCheck = "none" | "exhausted" | "expired" | "wrong" | "match";

/**
 * Checks `code` against a pending code's keyed hash, in constant time, under the key the hash
 * names (current or retired). Expiry is the code's own, against `now` from the clock port.
 */
export function checkCode(pending: PendingCode | undefined, code: string, now: Date, keys: Keys): CodeCheck {
  if (pending === undefined) return "none";
  if (pending.failedAttempts >= MAX_CODE_ATTEMPTS) return "exhausted";
  if (now.getTime() >= Date.parse(pending.expiresAt)) return "expired";
  return codeMatches(code, pending.hash, keys) ? "match" : "wrong";
}
