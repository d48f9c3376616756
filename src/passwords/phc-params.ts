import { err, ok, type Result } from "neverthrow";
import { parseDecimal } from "./numbers.js";
import { costOutOfRange, malformed, type HashRejection } from "./rejection.js";

/**
 * A PHC-style parameter list `k=v,k=v`: names from `allowed` only, each at most once, in any
 * order (node-argon2 writes m,p,t where the PHC spec says m,t,p).
 */
export function parseParamList(scheme: string, text: string, allowed: readonly string[]): Result<ReadonlyMap<string, string>, HashRejection> {
  const params = new Map<string, string>();
  for (const item of text.split(",")) {
    const eq = item.indexOf("=");
    const name = eq < 0 ? item : item.slice(0, eq);
    if (eq < 0 || !allowed.includes(name)) return err(malformed(scheme, "parameters", "contain an unknown or malformed parameter"));
    if (params.has(name)) return err(malformed(scheme, `parameter ${name}`, "appears twice"));
    params.set(name, item.slice(eq + 1));
  }
  return ok(params);
}

/** A required decimal parameter; a number too long to be a sane cost is out of range. */
export function numberParam(scheme: string, params: ReadonlyMap<string, string>, name: string): Result<number, HashRejection> {
  const text = params.get(name);
  if (text === undefined) return err(malformed(scheme, `parameter ${name}`, "is missing"));
  const parsed = parseDecimal(text);
  if (parsed.kind === "malformed") return err(malformed(scheme, `parameter ${name}`, "is not a decimal number without leading zeros"));
  if (parsed.kind === "huge") return err(costOutOfRange(scheme, `parameter ${name}`, "far too large"));
  return ok(parsed.value);
}
