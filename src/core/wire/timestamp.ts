import { recentAnswers } from "../../shared/recent-answers.js";

// One write formats and reads the same few instants again and again (its time, its codes' expiry,
// the listing's times): the answers for the last few are kept.
const RECENT_INSTANTS = 8;

const rfc3339OfMs = recentAnswers((ms: number): string => {
  const iso = new Date(ms).toISOString();
  return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : iso;
}, RECENT_INSTANTS);

const isoOfMs = recentAnswers((ms: number): string => new Date(ms).toISOString(), RECENT_INSTANTS);
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
