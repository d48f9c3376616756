import { refuseThenable } from "./host-calls.js";

/** Anything with `now()`, as the clock port is (the shared leaf names no port). */
interface Clock {
  now(): Date;
}

/**
 * 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z: the instants RFC 3339's four-digit years can
 * write, without year 0000, which PostgreSQL does not have (1 BC comes before 1 AD).
 */
const FIRST_WRITABLE_MS = -62_135_596_800_000;
const LAST_WRITABLE_MS = 253_402_300_799_999;

/** Whether RFC 3339 writes this instant (milliseconds since 1970) and PostgreSQL stores it. */
export function isWritableTime(ms: number): boolean {
  return ms >= FIRST_WRITABLE_MS && ms <= LAST_WRITABLE_MS;
}

const checkedClocks = new WeakSet<Clock>();

/**
 * The host's clock, each time checked before it is used: a time that is no Date, or that RFC 3339
 * cannot write (a date beyond year 9999 prints as "+010000-..."), throws, as a clock that throws
 * does: an operation answers 13 with the cause logged and writes nothing, and a delivery round
 * ends with an internal error instead of giving up mail as expired.
 */
export function checkedClock(clock: Clock): Clock {
  // Delivery after a write is handed the operation's clock, checked already: not wrapped twice.
  if (checkedClocks.has(clock)) return clock;
  const checked: Clock = {
    now() {
      const now: unknown = clock.now();
      refuseThenable(now, "ports.clock.now()");
      // Any Date, from another realm (a vm context, an iframe) too, where instanceof would say no.
      const ms = Object.prototype.toString.call(now) === "[object Date]" ? (now as Date).getTime() : Number.NaN;
      if (Number.isNaN(ms)) throw new Error("ports.clock.now() gave no valid time");
      if (!isWritableTime(ms)) throw new Error("ports.clock.now() gave a time outside the years 0001 to 9999 that RFC 3339 writes and PostgreSQL stores");
      return now as Date;
    },
  };
  checkedClocks.add(checked);
  return checked;
}
