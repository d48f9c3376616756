// The example server's settings from the environment, each checked at start-up: a bad one is one
// line saying which and why, never a stack trace or a server that half works.
import { err, ok, Result } from "neverthrow";

export interface ServerSettings {
  readonly port: number;
  readonly host: string;
  readonly token: string;
  readonly maxBodyBytes: number | undefined;
  readonly stopGraceMs: number;
}

/** A whole number from `min` to `max` written in decimal digits, or why not. */
function wholeNumber(name: string, text: string, max: number): Result<number, string> {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(value) && value <= max ? ok(value) : err(`${name} must be a whole number from 0 to ${max}; got ${JSON.stringify(text)}`);
}

export function readSettings(env: NodeJS.ProcessEnv): Result<ServerSettings, string> {
  const port = wholeNumber("PORT", env["PORT"] ?? "8080", 65_535);
  // NaN would cut off every request in flight at once.
  const stopGraceMs = wholeNumber("STOP_GRACE_MS", env["STOP_GRACE_MS"] ?? "10000", 3_600_000);
  const maxText = env["MAX_BODY_BYTES"];
  const maxBodyBytes = maxText === undefined ? ok(undefined) : wholeNumber("MAX_BODY_BYTES", maxText, Number.MAX_SAFE_INTEGER);
  return Result.combine([port, stopGraceMs]).andThen(([portValue, graceValue]) =>
    maxBodyBytes.map((max) => ({ port: portValue, host: env["HOST"] ?? "127.0.0.1", token: env["DEMO_TOKEN"] ?? "demo-token", maxBodyBytes: max, stopGraceMs: graceValue })),
  );
}
