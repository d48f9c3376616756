import { err, ok, type Result } from "neverthrow";
import { MIN_DIGEST_BYTES, type HashBounds } from "../bounds.js";
import { constantTimeEqual } from "../constant-time.js";
import { decodeBase64 } from "../encoding/base64.js";
import { numberParam, parseParamList } from "../phc-params.js";
import { argon2, type Argon2Params, type Argon2Type } from "../primitives/argon2.js";
import { checkDerivedKeyLength, costOutOfRange, malformed, type HashRejection } from "../rejection.js";

/** The cost fields are the primitive's parameters; an absent `v=` means version 0x10. */
export interface Argon2Hash extends Argon2Params {
  readonly family: "argon2";
  readonly salt: Uint8Array;
  readonly digest: Uint8Array;
}

const SCHEME = "argon2";
const SHAPE = /^\$(argon2id|argon2i|argon2d)(?:\$v=([^$]*))?\$([^$]*)\$([^$]*)\$([^$]*)$/;
const MIN_SALT_BYTES = 8;

export function parseArgon2(encoded: string): Result<Argon2Hash, HashRejection> {
  const match = SHAPE.exec(encoded);
  if (match === null) return err(malformed(SCHEME, "the string", "does not have the $argon2id$v=19$m=..,t=..,p=..$salt$hash shape"));
  const [, type, versionText, paramText, saltText, digestText] = match as unknown as [string, Argon2Type, string | undefined, string, string, string];
  let version = 0x10;
  if (versionText !== undefined) {
    if (versionText !== "16" && versionText !== "19") return err(malformed(SCHEME, "version", "is neither 16 nor 19"));
    version = Number(versionText);
  }
  const params = parseParamList(SCHEME, paramText, ["m", "t", "p", "data"]);
  if (params.isErr()) return err(params.error);
  const m = numberParam(SCHEME, params.value, "m");
  const t = numberParam(SCHEME, params.value, "t");
  const p = numberParam(SCHEME, params.value, "p");
  if (m.isErr()) return err(m.error);
  if (t.isErr()) return err(t.error);
  if (p.isErr()) return err(p.error);
  const dataText = params.value.get("data");
  const data = dataText === undefined ? undefined : decodeBase64(dataText, "forbidden");
  if (dataText !== undefined && data === undefined) return err(malformed(SCHEME, "data", "is not canonical base64"));
  const salt = decodeBase64(saltText, "forbidden");
  if (salt === undefined) return err(malformed(SCHEME, "salt", "is not canonical base64"));
  if (salt.length < MIN_SALT_BYTES) return err(malformed(SCHEME, "salt", `is shorter than ${MIN_SALT_BYTES} bytes`));
  const digest = decodeBase64(digestText, "forbidden");
  if (digest === undefined) return err(malformed(SCHEME, "hash", "is not canonical base64"));
  if (digest.length < MIN_DIGEST_BYTES) return err(malformed(SCHEME, "hash", `is shorter than ${MIN_DIGEST_BYTES} bytes`));
  return ok({ family: "argon2", type, version, memoryKiB: m.value, time: t.value, parallelism: p.value, data, salt, digest });
}

export function checkArgon2Bounds(hash: Argon2Hash, bounds: HashBounds): HashRejection | undefined {
  if (hash.time < bounds.argon2MinTime || hash.time > bounds.argon2MaxTime) {
    return costOutOfRange(SCHEME, "t", `${bounds.argon2MinTime}..${bounds.argon2MaxTime}`);
  }
  if (hash.parallelism < 1 || hash.parallelism > bounds.argon2MaxParallelism) {
    return costOutOfRange(SCHEME, "p", `1..${bounds.argon2MaxParallelism}`);
  }
  // Argon2 itself needs 8 KiB per lane; below that no implementation can compute the hash.
  if (hash.memoryKiB < 8 * hash.parallelism || hash.memoryKiB > bounds.argon2MaxMemoryKiB) {
    return costOutOfRange(SCHEME, "m", `8*p..${bounds.argon2MaxMemoryKiB} KiB`);
  }
  return checkDerivedKeyLength(SCHEME, hash.digest.length, bounds);
}

export async function verifyArgon2(hash: Argon2Hash, password: Uint8Array): Promise<boolean> {
  const computed = await argon2(password, hash.salt, hash, hash.digest.length);
  return constantTimeEqual(computed, hash.digest);
}
