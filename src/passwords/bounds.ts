import { bcryptCostMs } from "./cost.js";

/**
 * Cost limits checked before any hashing, at import and again before every verification, so
 * that a hostile hash cannot make a login expensive.
 */
export interface HashBounds {
  readonly bcryptMinCost: number;
  readonly bcryptMaxCost: number;
  readonly argon2MinTime: number;
  readonly argon2MaxTime: number;
  /** KiB, as in the `m=` parameter. */
  readonly argon2MaxMemoryKiB: number;
  readonly argon2MaxParallelism: number;
  /** Upper bound of 128 * N * r, the bytes scrypt allocates. */
  readonly scryptMaxMemoryBytes: number;
  /** Upper bound of N * r * p, proportional to scrypt's work. */
  readonly scryptMaxWork: number;
  readonly pbkdf2MaxIterations: number;
  /** Derived-key (digest) length bounds of PBKDF2, scrypt and argon2. */
  readonly minDerivedKeyBytes: number;
  readonly maxDerivedKeyBytes: number;
  readonly shaCryptMaxRounds: number;
  /** log2 of the iteration count of phpass and Drupal 7. */
  readonly phpassMinLog2: number;
  readonly phpassMaxLog2: number;
  /** UTF-8 bytes; longer passwords are refused before hashing. */
  readonly maxPasswordBytes: number;
  /**
   * The budget for a whole verification, beside the bounds on each parameter: a hash whose
   * estimated cost (src/passwords/cost.ts: CPU milliseconds on the reference machine, at the
   * speed of the path that will run it) is over it is refused. Default: the estimate for bcrypt
   * at cost 15, about 2,060 ms.
   */
  readonly maxEstimatedCostMs: number;
}

/** The cost bounds used for every member a host leaves out (see the table in docs/passwords-and-migration.md). */
export const defaultHashBounds: HashBounds = Object.freeze({
  bcryptMinCost: 4,
  bcryptMaxCost: 15,
  argon2MinTime: 1,
  argon2MaxTime: 10,
  argon2MaxMemoryKiB: 262_144,
  argon2MaxParallelism: 16,
  scryptMaxMemoryBytes: 256 * 1024 * 1024,
  scryptMaxWork: 2 ** 22,
  pbkdf2MaxIterations: 2_000_000,
  minDerivedKeyBytes: 16,
  maxDerivedKeyBytes: 128,
  shaCryptMaxRounds: 1_000_000,
  phpassMinLog2: 7,
  phpassMaxLog2: 20,
  maxPasswordBytes: 1024,
  maxEstimatedCostMs: bcryptCostMs(15),
});

/**
 * The bounds to use: the defaults, overridden by every member of `bounds` that is a number, 0 or
 * more. Other members, a member that throws when read, and anything that is not an object are
 * ignored, so a partial or mistyped configuration still gets the safe defaults rather than no limit.
 */
export function resolveHashBounds(bounds?: Partial<HashBounds>): HashBounds {
  if (bounds === defaultHashBounds) return defaultHashBounds;
  if (typeof bounds !== "object" || bounds === null) return defaultHashBounds;
  const resolved: Record<keyof HashBounds, number> = { ...defaultHashBounds };
  for (const key of Object.keys(defaultHashBounds) as (keyof HashBounds)[]) {
    let value: unknown;
    try {
      value = bounds[key];
    } catch {
      continue;
    }
    // NaN is not 0 or more either.
    if (typeof value === "number" && value >= 0) resolved[key] = value;
  }
  return resolved;
}

/** A digest shorter than this is refused whatever the format: it says too little. */
export const MIN_DIGEST_BYTES = 16;
