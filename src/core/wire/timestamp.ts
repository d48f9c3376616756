/**
 * RFC 3339 in UTC with `Z`, as protobuf JSON writes a Timestamp: no fraction when the
 * milliseconds are zero, else three digits.
 */
export function rfc3339(date: Date): string {
  const iso = date.toISOString();
  return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : iso;
}

/** A protobuf JSON Duration: whole seconds with an `s` suffix. */
export function durationSeconds(seconds: number): string {
  return `${seconds}s`;
}
