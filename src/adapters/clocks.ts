import type { Clock } from "../ports/clock.js";

/** A clock that always answers `date` (a Date or anything `new Date()` reads): for tests and replays. */
export function fixedClock(date: Date | string | number): Clock {
  const fixed = new Date(date instanceof Date ? date.getTime() : date);
  if (Number.isNaN(fixed.getTime())) throw new RangeError("fixedClock needs a valid date");
  return { now: () => new Date(fixed.getTime()) };
}

/** The machine's clock. */
export const systemClock: Clock = { now: () => new Date() };
