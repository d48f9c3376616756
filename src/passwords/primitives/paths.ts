import { DIGEST_NAMES, type DigestName } from "./digest.js";
import { nativeArgon2, nativeCrypto, nativeEnabled, nativeOneShotHash, nativePbkdf2 } from "./native.js";

/**
 * Which primitives run natively on this runtime; the others run in pure JS, in slices on the
 * event loop's thread, several times slower. The cost model counts each hash at the speed of the
 * path that will run it. The answers come from the same lookups the primitives make.
 */
export interface HashingPaths {
  /** The optional argon2 binding. It takes no associated data: `data=` hashes run in pure JS whatever this says. */
  readonly argon2: boolean;
  /** node:crypto's scrypt. */
  readonly scrypt: boolean;
  /** The digests node:crypto's PBKDF2 takes. */
  readonly pbkdf2: ReadonlySet<DigestName>;
  /** The digests the crypt family's loops (MD5-crypt, SHA-crypt, phpass) take from node:crypto. */
  readonly digestLoops: ReadonlySet<DigestName>;
}

/** Everything native, as on Node: what a hash is checked against at import, where no runtime is known yet. */
export const ALL_NATIVE: HashingPaths = Object.freeze({
  argon2: true,
  scrypt: true,
  pbkdf2: new Set(DIGEST_NAMES),
  digestLoops: new Set(DIGEST_NAMES),
});

async function namesWhere(test: (name: DigestName) => Promise<unknown>): Promise<ReadonlySet<DigestName>> {
  const found = await Promise.all(DIGEST_NAMES.map(async (name) => ((await test(name)) === undefined ? [] : [name])));
  return new Set(found.flat());
}

async function lookUpPaths(): Promise<HashingPaths> {
  const [argon2, crypto, pbkdf2, digestLoops] = await Promise.all([nativeArgon2(), nativeCrypto(), namesWhere(nativePbkdf2), namesWhere(nativeOneShotHash)]);
  return { argon2: argon2 !== undefined, scrypt: crypto !== undefined, pbkdf2, digestLoops };
}

/** Looked up once for native code on and once for off: the runtime does not change in between. */
const lookups = new Map<boolean, Promise<HashingPaths>>();
/** The lookups that have finished, for synchronous callers. */
const settled = new Map<boolean, HashingPaths>();

/** This runtime's paths: what a hash is checked against right before it is verified. */
export function hashingPaths(): Promise<HashingPaths> {
  const enabled = nativeEnabled();
  let paths = lookups.get(enabled);
  if (paths === undefined) {
    paths = lookUpPaths().then((found) => {
      settled.set(enabled, found);
      return found;
    });
    lookups.set(enabled, paths);
  }
  return paths;
}

/** This runtime's paths once `hashingPaths()` has found them; undefined before. */
export function settledHashingPaths(): HashingPaths | undefined {
  return settled.get(nativeEnabled());
}
