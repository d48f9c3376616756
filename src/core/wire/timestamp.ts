/**
 * RFC 3339 in UTC with `Z`, as protobuf JSON writes a Timestamp: no fraction when the
 * milliseconds are zero, else three digits.
 */
export function rfc3339(date: Date): string {
  // One write formats the same instant several times (events, facts, expiries computed from it):
  // the last answer is kept.
  const ms = date.getTime();
  if (ms === lastMs) return lastText;
  const iso = date.toISOString();
  lastText = iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : iso;
  lastMs = ms;
  return lastText;
}

let lastMs = Number.NaN;
let lastText = "";

/** A protobuf JSON Duration: whole seconds with an `s` suffix. */
export function durationSeconds(seconds: number): string {
  return `${seconds}s`;
}
