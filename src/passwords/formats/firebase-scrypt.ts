import { err, ok, type Result } from "neverthrow";
import { MIN_DIGEST_BYTES, type HashBounds } from "../bounds.js";
import { constantTimeEqual } from "../constant-time.js";
import { decodeBase64 } from "../encoding/base64.js";
import { concatBytes } from "../encoding/bytes.js";
import { scrypt } from "../primitives/scrypt.js";
import { malformed, type HashRejection } from "../rejection.js";
import { checkScryptCost, parseScryptParams } from "./scrypt.js";

/**
 * Firebase's modified scrypt, in Kratos' layout
 * `$firescrypt$ln=<mem cost>,r=<rounds>,p=1$<salt>$<hash>$<salt separator>$<signer key>`:
 * key = scrypt(password, salt || separator, N=2^ln, r, p), and the stored hash is the signer key
 * encrypted with AES-256-CTR under the key's first 32 bytes and a zero counter block.
 */
export interface FirebaseScryptHash {
  readonly family: "firebase-scrypt";
  readonly n: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Uint8Array;
  readonly digest: Uint8Array;
  readonly saltSeparator: Uint8Array;
  readonly signerKey: Uint8Array;
}

const SCHEME = "firebase scrypt";
const SHAPE = /^\$firescrypt\$([^$]*)\$([^$]*)\$([^$]*)\$([^$]*)\$([^$]*)$/;

export function parseFirebaseScrypt(encoded: string): Result<FirebaseScryptHash, HashRejection> {
  const match = SHAPE.exec(encoded);
  if (match === null) return err(malformed(SCHEME, "the string", "does not have the $firescrypt$ln=..,r=..,p=..$salt$hash$separator$key shape"));
  const [, paramText, ...fieldTexts] = match as unknown as [string, string, string, string, string, string];
  const cost = parseScryptParams(SCHEME, paramText);
  if (cost.isErr()) return err(cost.error);
  const names = ["salt", "hash", "salt separator", "signer key"] as const;
  const fields: Uint8Array[] = [];
  for (const [i, name] of names.entries()) {
    const bytes = decodeBase64(fieldTexts[i] ?? "", "optional");
    if (bytes === undefined) return err(malformed(SCHEME, name, "is not canonical base64"));
    fields.push(bytes);
  }
  const [salt, digest, saltSeparator, signerKey] = fields as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
  if (digest.length < MIN_DIGEST_BYTES) return err(malformed(SCHEME, "hash", `is shorter than ${MIN_DIGEST_BYTES} bytes`));
  if (signerKey.length !== digest.length) return err(malformed(SCHEME, "signer key", "is not as long as the hash"));
  return ok({ family: "firebase-scrypt", ...cost.value, salt, digest, saltSeparator, signerKey });
}

export function checkFirebaseScryptBounds(hash: FirebaseScryptHash, bounds: HashBounds): HashRejection | undefined {
  return checkScryptCost(SCHEME, hash, hash.digest.length, bounds);
}

async function aes256CtrZeroIv(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const subtle = globalThis.crypto.subtle;
  const cryptoKey = await subtle.importKey("raw", key, { name: "AES-CTR" }, false, ["encrypt"]);
  const out = await subtle.encrypt({ name: "AES-CTR", counter: new Uint8Array(16), length: 64 }, cryptoKey, data);
  return new Uint8Array(out);
}

export async function verifyFirebaseScrypt(hash: FirebaseScryptHash, password: Uint8Array): Promise<boolean> {
  const key = await scrypt(password, concatBytes(hash.salt, hash.saltSeparator), hash, 32);
  const computed = await aes256CtrZeroIv(key, hash.signerKey);
  return constantTimeEqual(computed, hash.digest);
}
