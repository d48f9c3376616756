import { estimateCostMs, type CostContext } from "./cost.js";
import type { ParsedPasswordHash, PasswordHashFamily } from "./parsed.js";
import { ALL_NATIVE } from "./primitives/paths.js";
import { costOutOfRange, type HashRejection } from "./rejection.js";

/**
 * A password of this many bytes is what a hash is costed with when no password is at hand (at
 * import). The crypt family's and phpass' loops hash the password every round, so a longer one
 * costs more; before a verification the real length is used.
 */
export const NOMINAL_PASSWORD_BYTES = 64;

/** At import: on a runtime with native code (Node's), for a nominal password. */
export const IMPORT_CONTEXT: CostContext = Object.freeze({ paths: ALL_NATIVE, passwordBytes: NOMINAL_PASSWORD_BYTES });

/** The fields each family's cost grows with, for the refusal's message. */
const COST_FIELDS: Readonly<Record<PasswordHashFamily, string>> = {
  bcrypt: "cost",
  argon2: "m and t",
  scrypt: "N, r and p",
  "firebase-scrypt": "N, r and p",
  pbkdf2: "rounds and hash length",
  "md5-crypt": "cost",
  "sha-crypt": "rounds",
  phpass: "rounds",
  "salted-digest": "cost",
  hmac: "cost",
};

/** The scheme as the parsers' own messages name it. */
function schemeOf(hash: ParsedPasswordHash): string {
  switch (hash.family) {
    case "firebase-scrypt":
      return "firebase scrypt";
    case "phpass":
      return hash.variant;
    case "salted-digest":
      return hash.scheme;
    default:
      return hash.family;
  }
}

function limitText(budgetMs: number): string {
  return `estimated cost at most ${Number(budgetMs.toPrecision(4))} ms`;
}

/**
 * The refusal of a hash whose estimated cost is over `budgetMs`, or undefined. When the hash
 * would fit with a nominal password, the password's length is what is refused.
 */
export function checkCostBudget(hash: ParsedPasswordHash, budgetMs: number, context: CostContext): HashRejection | undefined {
  // Written so that an estimate that is not a number (a hand-made parsed hash) is refused.
  if (estimateCostMs(hash, context) <= budgetMs) return undefined;
  const nominal = { ...context, passwordBytes: NOMINAL_PASSWORD_BYTES };
  if (context.passwordBytes > NOMINAL_PASSWORD_BYTES && estimateCostMs(hash, nominal) <= budgetMs) {
    return { reason: "password-too-long", message: `the password is too long for this hash's cost (${limitText(budgetMs)})` };
  }
  return costOutOfRange(schemeOf(hash), COST_FIELDS[hash.family], limitText(budgetMs));
}
