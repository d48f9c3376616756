import { isWritableTime } from "../../shared/checked-clock.js";
import { recentAnswers } from "../../shared/recent-answers.js";

/**
 * `ms` as `toISOString()` writes it. A time the clock check would refuse, derived from a good one
 * (a code's expiry 72 hours after the last day of year 9999), throws: the operation then answers
 * 13 and writes nothing, instead of storing "+010000-..." where PostgreSQL stores nothing.
 */
function writableIso(ms: number): string {
  if (!isWritableTime(ms)) throw new RangeError("a time outside the years 0001 to 9999 that RFC 3339 writes and PostgreSQL stores");
  return new Date(ms).toISOString();
}

// One write formats and reads the same few instants again and again (its time, its codes' expiry,
// the listing's times): the answers for the last few are kept.
const RECENT_INSTANTS = 8;

const rfc3339OfMs = recentAnswers((ms: number): string => {
  const iso = writableIso(ms);
  return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : iso;
}, RECENT_INSTANTS);

const isoOfMs = recentAnswers((ms: number): string => writableIso(ms), RECENT_INSTANTS);
const msOfTime = recentAnswers((time: string): number => Date.parse(time), RECENT_INSTANTS);

/**
 * RFC 3339 in UTC with `Z`, as protobuf JSON writes a Timestamp: no fraction when the
 * milliseconds are zero, else three digits.
 */
export function rfc3339(date: Date): string {
  return rfc3339OfMs(date.getTime());
}

/** A time as stores answer it: `toISOString()` form, whatever form `time` had. Throws a RangeError for no time. */
export function isoTime(time: string): string {
  return isoOfMs(msOfTime(time));
}

/** `seconds` after `time`, in `toISOString()` form. Throws a RangeError for no time. */
export function isoTimeAfter(time: string, seconds: number): string {
  return isoOfMs(msOfTime(time) + seconds * 1000);
}

/** A protobuf JSON Duration: whole seconds with an `s` suffix. */
export function durationSeconds(seconds: number): string {
  return `${seconds}s`;
}
