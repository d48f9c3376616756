import { err, ok, type Result } from "neverthrow";
import type { HashBounds } from "../bounds.js";
import { constantTimeEqual } from "../constant-time.js";
import { latin1, utf8 } from "../encoding/bytes.js";
import { decodeHash64, encodeHash64, hash64Value } from "../encoding/hash64.js";
import { digestStreams } from "../primitives/fast-digest.js";
import { slicedLoop } from "../primitives/yielding.js";
import { costOutOfRange, malformed, type HashRejection } from "../rejection.js";

/** phpass portable hashes (`$P$`, phpBB's `$H$`, MD5) and Drupal 7 (`$S$`, SHA-512). */
export interface PhpassHash {
  readonly family: "phpass";
  readonly variant: "phpass" | "drupal7";
  readonly log2Rounds: number;
  readonly salt: string;
  /** The checksum as written: Drupal keeps only the first 43 characters of the encoded digest. */
  readonly checksum: string;
}

const PHPASS_SHAPE = /^\$[PH]\$([./0-9A-Za-z])([./0-9A-Za-z]{8})([./0-9A-Za-z]{22})$/;
const DRUPAL_SHAPE = /^\$S\$([./0-9A-Za-z])([./0-9A-Za-z]{8})([./0-9A-Za-z]{43})$/;

export function parsePhpass(encoded: string): Result<PhpassHash, HashRejection> {
  const drupal = encoded.startsWith("$S$");
  const match = (drupal ? DRUPAL_SHAPE : PHPASS_SHAPE).exec(encoded);
  const scheme = drupal ? "drupal7" : "phpass";
  if (match === null) return err(malformed(scheme, "the string", "does not have the $P$<rounds><8-character salt><checksum> shape"));
  const [, roundsChar, salt, checksum] = match as unknown as [string, string, string, string];
  // phpass' 22 characters hold exactly 16 bytes; Drupal's 43 are a prefix, with no spare bits.
  if (!drupal && decodeHash64(checksum) === undefined) return err(malformed(scheme, "checksum", "is not canonical crypt base64"));
  return ok({ family: "phpass", variant: drupal ? "drupal7" : "phpass", log2Rounds: hash64Value(roundsChar), salt, checksum });
}

export function checkPhpassBounds(hash: PhpassHash, bounds: HashBounds): HashRejection | undefined {
  if (hash.log2Rounds < bounds.phpassMinLog2 || hash.log2Rounds > bounds.phpassMaxLog2) {
    return costOutOfRange(hash.variant, "rounds", `log2 ${bounds.phpassMinLog2}..${bounds.phpassMaxLog2}`);
  }
  return undefined;
}

export async function phpassChecksum(hash: PhpassHash, password: Uint8Array): Promise<string> {
  const name = hash.variant === "drupal7" ? "sha512" : "md5";
  const create = await digestStreams(name);
  let current = create().update(latin1(hash.salt)).update(password).digest();
  await slicedLoop(2 ** hash.log2Rounds, () => {
    current = create().update(current).update(password).digest();
  });
  return encodeHash64(current).slice(0, hash.checksum.length);
}

export async function verifyPhpass(hash: PhpassHash, password: Uint8Array): Promise<boolean> {
  return constantTimeEqual(utf8(await phpassChecksum(hash, password)), utf8(hash.checksum));
}
