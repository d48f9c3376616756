import type { Argon2Hash } from "./formats/argon2.js";
import type { BcryptHash } from "./formats/bcrypt.js";
import type { FirebaseScryptHash } from "./formats/firebase-scrypt.js";
import type { HmacHash } from "./formats/hmac.js";
import type { Md5CryptHash } from "./formats/md5-crypt.js";
import type { Pbkdf2Hash } from "./formats/pbkdf2.js";
import type { PhpassHash } from "./formats/phpass.js";
import type { SaltedDigestHash } from "./formats/salted-digest.js";
import type { ScryptHash } from "./formats/scrypt.js";
import type { ShaCryptHash } from "./formats/sha-crypt.js";
import type { ParsedPasswordHash, PasswordHashFamily } from "./parsed.js";
import { digestLength, type DigestName } from "./primitives/digest.js";
import type { HashingPaths } from "./primitives/paths.js";

/**
 * The cost model: what verifying a hash will cost, estimated from its parameters alone (a
 * formula, never a timing at run time), so that a hash can be refused before any hashing.
 *
 * Unit: estimated CPU milliseconds on the reference machine (a 2-core AMD EPYC virtual machine,
 * Node 20.20), counted at the speed of the path that will run the hash: native where the runtime
 * has native code and the hash allows it, pure JS otherwise. Work spread over threads (argon2
 * with p > 1) counts in full: the budget bounds the CPU a login may take, and a busy server has
 * no idle core to lend. Only ratios matter in use: the default budget is this model's own figure
 * for bcrypt at cost 15.
 *
 * Calibration (once, by hand): the constants below are primitive speeds, fitted to the cheapest
 * CPU time (process.cpuUsage, all threads) of six runs of the bench's "cost model" section
 * (`PASSWORDS_SECTIONS=cost npm run bench -- passwords`, which prints 22 hashes' estimates beside
 * their measured CPU time on each path), on a machine other processes kept busy: CPU time, unlike
 * the wall clock, hardly counts their share. Three runs after the fit measured every case at
 * 0.67x..1.12x of its estimate; where a primitive's speed varies with the size (argon2's and
 * scrypt's memory), the slower figure was taken.
 */

/** A primitive's speed on each path: milliseconds per unit of work. */
interface Speed {
  readonly native: number;
  readonly js: number;
}

/** One round of bcrypt's key schedule (two expansions); bcrypt always runs our own pure JS. */
const BCRYPT_ROUND_MS = 0.063;

/**
 * argon2: one pass over one 1 KiB block. Natively 0.17 us at 4 MiB, 0.4 at 256 MiB (cache and
 * TLB misses): the higher figure is taken.
 */
const ARGON2_BLOCK_MS: Speed = { native: 0.0004, js: 0.0047 };
/** argon2: bringing one KiB of fresh memory in, once per hash (page faults on the first pass). */
const ARGON2_MEMORY_MS: Speed = { native: 0, js: 0.0012 };

/** scrypt: one unit of N*r*p (two Salsa20/8 cores each way of the mixing loop). */
const SCRYPT_MIX_MS: Speed = { native: 0.00035, js: 0.0009 };
/** scrypt: one unit of r*p (128 bytes of PBKDF2 output spread into the lanes, then hashed back). */
const SCRYPT_LANE_MS: Speed = { native: 0.00075, js: 0.0078 };

/** PBKDF2: one iteration of one output block (two compressions of the digest). */
const PBKDF2_ITERATION_MS: Readonly<Record<Pbkdf2Hash["prf"], Speed>> = {
  sha1: { native: 0.0002, js: 0.0013 },
  sha224: { native: 0.0002, js: 0.0016 },
  sha256: { native: 0.0002, js: 0.0016 },
  sha384: { native: 0.00047, js: 0.0045 },
  sha512: { native: 0.00047, js: 0.0045 },
  "sha3-224": { native: 0.0008, js: 0.0134 },
  "sha3-384": { native: 0.0008, js: 0.0134 },
};

/** One digest call of a loop: a fixed part, and a part per byte hashed. */
interface DigestSpeed {
  readonly call: Speed;
  readonly byte: Speed;
}

const MD5: DigestSpeed = { call: { native: 0.0011, js: 0.0015 }, byte: { native: 0.0000017, js: 0.0000115 } };
const SHA1: DigestSpeed = { call: { native: 0.0011, js: 0.0015 }, byte: { native: 0.0000017, js: 0.000012 } };
const SHA256: DigestSpeed = { call: { native: 0.0011, js: 0.0011 }, byte: { native: 0.0000007, js: 0.0000105 } };
const SHA512: DigestSpeed = { call: { native: 0.0013, js: 0.0022 }, byte: { native: 0.0000014, js: 0.000013 } };
const SHA3: DigestSpeed = { call: { native: 0.0015, js: 0.01 }, byte: { native: 0.000003, js: 0.00006 } };

const DIGEST_SPEED: Readonly<Record<DigestName, DigestSpeed>> = {
  md5: MD5,
  sha1: SHA1,
  sha224: SHA256,
  sha256: SHA256,
  sha384: SHA512,
  sha512: SHA512,
  "sha3-224": SHA3,
  "sha3-256": SHA3,
  "sha3-384": SHA3,
  "sha3-512": SHA3,
};

/** Where a hash is costed: the runtime's paths, and the password's length in bytes. */
export interface CostContext {
  readonly paths: HashingPaths;
  readonly passwordBytes: number;
}

function pick(speed: Speed, native: boolean): number {
  return native ? speed.native : speed.js;
}

/** `calls` digests of `bytes` bytes each. */
function digestsMs(name: DigestName, native: boolean, calls: number, bytes: number): number {
  const speed = DIGEST_SPEED[name];
  return calls * (pick(speed.call, native) + bytes * pick(speed.byte, native));
}

/** bcrypt at `cost`: exported because the default budget is bcrypt at cost 15. */
export function bcryptCostMs(cost: number): number {
  return 2 ** cost * BCRYPT_ROUND_MS;
}

function bcryptCost(hash: BcryptHash): number {
  return bcryptCostMs(hash.cost);
}

/** The binding takes no associated data: a `data=` hash runs in pure JS even where the binding is installed. */
function argon2Cost(hash: Argon2Hash, { paths }: CostContext): number {
  const native = paths.argon2 && hash.data === undefined;
  return hash.memoryKiB * (hash.time * pick(ARGON2_BLOCK_MS, native) + pick(ARGON2_MEMORY_MS, native));
}

function scryptCost(hash: ScryptHash | FirebaseScryptHash, { paths }: CostContext): number {
  const lanes = hash.r * hash.p;
  return hash.n * lanes * pick(SCRYPT_MIX_MS, paths.scrypt) + lanes * pick(SCRYPT_LANE_MS, paths.scrypt);
}

/** PBKDF2 runs all its iterations once per output block of the digest's length. */
function pbkdf2Cost(hash: Pbkdf2Hash, { paths }: CostContext): number {
  const blocks = Math.ceil(hash.digest.length / digestLength(hash.prf));
  return hash.iterations * blocks * pick(PBKDF2_ITERATION_MS[hash.prf], paths.pbkdf2.has(hash.prf));
}

/** The rounds of MD5-crypt and SHA-crypt hash the previous digest, the salt and the password twice, on average. */
function cryptRoundBytes(name: DigestName, saltBytes: number, passwordBytes: number): number {
  return digestLength(name) + saltBytes + 2 * passwordBytes;
}

const MD5_CRYPT_ROUNDS = 1000;

function md5CryptCost(hash: Md5CryptHash, { paths, passwordBytes }: CostContext): number {
  return digestsMs("md5", paths.digestLoops.has("md5"), MD5_CRYPT_ROUNDS, cryptRoundBytes("md5", hash.salt.length, passwordBytes));
}

/** Beside its rounds, SHA-crypt's set-up hashes the password once per byte of itself. */
function shaCryptCost(hash: ShaCryptHash, { paths, passwordBytes }: CostContext): number {
  const native = paths.digestLoops.has(hash.digestName);
  const rounds = digestsMs(hash.digestName, native, hash.rounds, cryptRoundBytes(hash.digestName, hash.salt.length, passwordBytes));
  return rounds + digestsMs(hash.digestName, native, 1, passwordBytes * passwordBytes);
}

/** Each of phpass' rounds hashes the previous digest and the password. */
function phpassCost(hash: PhpassHash, { paths, passwordBytes }: CostContext): number {
  const name = hash.variant === "drupal7" ? "sha512" : "md5";
  return digestsMs(name, paths.digestLoops.has(name), 2 ** hash.log2Rounds, digestLength(name) + passwordBytes);
}

/** One digest, in pure JS, of the template laid out. */
function saltedDigestCost(hash: SaltedDigestHash, { passwordBytes }: CostContext): number {
  const bytes = hash.template.reduce((sum, part) => sum + (part === "password" ? passwordBytes : part === "salt" ? hash.salt.length : part.length), 0);
  return digestsMs(hash.digestName, false, 1, bytes);
}

/** HMAC, in pure JS: the key's two pads and the password, then the outer digest. */
function hmacCost(hash: HmacHash, { passwordBytes }: CostContext): number {
  return digestsMs(hash.digestName, false, 2, 2 * hash.key.length + passwordBytes + digestLength(hash.digestName));
}

type Estimate<F extends PasswordHashFamily> = (hash: Extract<ParsedPasswordHash, { readonly family: F }>, context: CostContext) => number;

/** One estimate per family. */
const ESTIMATES: { readonly [F in PasswordHashFamily]: Estimate<F> } = {
  bcrypt: bcryptCost,
  argon2: argon2Cost,
  scrypt: scryptCost,
  "firebase-scrypt": scryptCost,
  pbkdf2: pbkdf2Cost,
  "md5-crypt": md5CryptCost,
  "sha-crypt": shaCryptCost,
  phpass: phpassCost,
  "salted-digest": saltedDigestCost,
  hmac: hmacCost,
};

/** The estimated cost of verifying `hash`, in CPU milliseconds of the reference machine. */
export function estimateCostMs(hash: ParsedPasswordHash, context: CostContext): number {
  const estimate = ESTIMATES[hash.family] as (hash: ParsedPasswordHash, context: CostContext) => number;
  return estimate(hash, context);
}
