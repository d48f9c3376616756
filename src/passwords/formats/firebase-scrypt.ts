import { err, ok, type Result } from "neverthrow";
import { MIN_DIGEST_BYTES, type HashBounds } from "../bounds.js";
import { constantTimeEqual } from "../constant-time.js";
import { decodeBase64 } from "../encoding/base64.js";
import { concatBytes } from "../encoding/bytes.js";
import { scrypt } from "../primitives/scrypt.js";
import { costOutOfRange, malformed, type HashRejection } from "../rejection.js";
import { checkScryptCost, parseScryptParams } from "./scrypt.js";

/**
 * Firebase's modified scrypt: key = scrypt(password, salt || separator, N=2^ln, r, p), and the
 * stored hash is the project's signer key encrypted with AES-256-CTR under the key's first 32
 * bytes and a zero counter block. Two spellings: Kratos'
 * `$firescrypt$ln=<mem cost>,r=<rounds>,p=1$<salt>$<hash>$<salt separator>$<signer key>`, and
 * SuperTokens' `$f_scrypt$<hash>$<salt>$m=<mem cost>$r=<rounds>$s=<salt separator>`, which leaves
 * the signer key (the same for every user of a project) to the verifier's configuration.
 */
export interface FirebaseScryptHash {
  readonly family: "firebase-scrypt";
  readonly layout: "kratos" | "supertokens";
  readonly n: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Uint8Array;
  readonly digest: Uint8Array;
  readonly saltSeparator: Uint8Array;
  /** In the string (Kratos), or the project's, given to the verifier (SuperTokens); undefined until then. */
  readonly signerKey: Uint8Array | undefined;
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
  return ok({ family: "firebase-scrypt", layout: "kratos", ...cost.value, salt, digest, saltSeparator, signerKey });
}

/** Above this, N alone is past every memory bound (2^31 * 128 bytes). */
const MAX_MEM_COST = 30;
const SUPERTOKENS_SHAPE = /^\$f_scrypt\$([^$]*)\$([^$]*)\$m=([^$]*)\$r=([^$]*)\$s=([^$]*)$/;
/** A decimal without sign or leading zero, as the other formats' numbers. */
const DECIMAL = /^(?:0|[1-9][0-9]{0,8})$/;

/** SuperTokens' `$f_scrypt$<hash>$<salt>$m=<mem cost>$r=<rounds>$s=<salt separator>`; the signer key is the project's. */
export function parseSuperTokensFirebaseScrypt(encoded: string): Result<FirebaseScryptHash, HashRejection> {
  const match = SUPERTOKENS_SHAPE.exec(encoded);
  if (match === null) return err(malformed(SCHEME, "the string", "does not have the $f_scrypt$hash$salt$m=..$r=..$s=.. shape"));
  const [, digestText, saltText, memText, roundsText, separatorText] = match as unknown as [string, string, string, string, string, string];
  if (!DECIMAL.test(memText)) return err(malformed(SCHEME, "m", "is not a decimal number"));
  if (!DECIMAL.test(roundsText)) return err(malformed(SCHEME, "r", "is not a decimal number"));
  // Firebase's mem_cost is always log2 N (no literal N, as Kratos' `ln` may be).
  const memCost = Number(memText);
  if (memCost < 1 || memCost > MAX_MEM_COST) return err(costOutOfRange(SCHEME, "m", `1..${MAX_MEM_COST}`));
  const fields: Uint8Array[] = [];
  for (const [name, text] of [["hash", digestText], ["salt", saltText], ["salt separator", separatorText]] as const) {
    const bytes = decodeBase64(text, "optional");
    if (bytes === undefined) return err(malformed(SCHEME, name, "is not canonical base64"));
    fields.push(bytes);
  }
  const [digest, salt, saltSeparator] = fields as [Uint8Array, Uint8Array, Uint8Array];
  if (digest.length < MIN_DIGEST_BYTES) return err(malformed(SCHEME, "hash", `is shorter than ${MIN_DIGEST_BYTES} bytes`));
  return ok({ family: "firebase-scrypt", layout: "supertokens", n: 2 ** memCost, r: Number(roundsText), p: 1, salt, digest, saltSeparator, signerKey: undefined });
}

/**
 * The hash with the project's signer key where its string leaves the key out, or why it cannot be
 * checked: no key given, or one of another length than the hash.
 */
export function withProjectSignerKey(hash: FirebaseScryptHash, signerKey: Uint8Array | undefined): Result<FirebaseScryptHash, HashRejection> {
  if (hash.signerKey !== undefined) return ok(hash);
  if (signerKey === undefined) return err(malformed(SCHEME, "signer key", "is the Firebase project's, and none is configured (firebaseSignerKey)"));
  if (signerKey.length !== hash.digest.length) return err(malformed(SCHEME, "signer key", "is not as long as the hash"));
  return ok({ ...hash, signerKey });
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

/** Callers give the project's signer key first (withProjectSignerKey); without one nothing matches. */
export async function verifyFirebaseScrypt(hash: FirebaseScryptHash, password: Uint8Array): Promise<boolean> {
  if (hash.signerKey === undefined) return false;
  const key = await scrypt(password, concatBytes(hash.salt, hash.saltSeparator), hash, 32);
  const computed = await aes256CtrZeroIv(key, hash.signerKey);
  return constantTimeEqual(computed, hash.digest);
}
