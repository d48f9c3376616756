// Loads the shared password-hash vectors and turns each into a call of the public API.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExplicitPasswordHash } from "../../src/passwords/index.js";

export interface HashVector {
  readonly format: string;
  readonly hash: string;
  readonly password: string | null;
  readonly password_hex?: string;
  readonly valid: boolean;
  readonly reason?: string;
  readonly dos?: boolean;
  readonly note?: string;
  readonly salt?: string;
  readonly salt_position?: "prefix" | "suffix";
  readonly encoding?: "hex" | "base64";
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/**
 * The repository keeps its own copy, so that it is self-contained; `fixtures.test.ts` fails when
 * the copy drifts from the shared file, wherever that one is present (../shared beside the clone).
 */
export const LOCAL_VECTORS_PATH = resolve(repoRoot, "test/fixtures/hash-vectors.json");
export const SHARED_VECTORS_PATH = resolve(repoRoot, "../shared/fixtures/hash-vectors.json");

export function loadVectors(): readonly HashVector[] {
  return JSON.parse(readFileSync(LOCAL_VECTORS_PATH, "utf8")) as HashVector[];
}

export function passwordOf(vector: HashVector): string | Uint8Array {
  if (vector.password !== null) return vector.password;
  return Uint8Array.from((vector.password_hex ?? "").match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

const HEX_DIGESTS: Readonly<Record<string, "md5" | "sha1" | "sha256" | "sha512">> = {
  "md5-hex": "md5",
  "sha1-hex": "sha1",
  "sha256-hex": "sha256",
  "sha512-hex": "sha512",
};

interface EncodedValue {
  readonly value: string;
  readonly encoding: string;
  readonly digest?: string;
  readonly key?: EncodedValue;
}

function bytesOf(field: EncodedValue): Uint8Array | string {
  if (field.encoding === "hex") return Uint8Array.from(field.value.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
  if (field.encoding === "base64") return Uint8Array.from(atob(field.value), (char) => char.charCodeAt(0));
  return field.value;
}

/** Auth0's custom_password_hash object, as far as the vectors use it. */
function fromAuth0(json: string): ExplicitPasswordHash {
  const parsed = JSON.parse(json) as { algorithm: string; hash: EncodedValue; salt?: EncodedValue; keylen?: number; cost?: number };
  const encoding = parsed.hash.encoding === "hex" ? "hex" : "base64";
  if (parsed.algorithm === "hmac") {
    const key = parsed.hash.key;
    if (key === undefined) throw new Error("hmac without key");
    return { kind: "hmac", digest: parsed.hash.digest === "sha1" ? "sha1" : "sha256", hash: parsed.hash.value, encoding, key: bytesOf(key) };
  }
  if (parsed.algorithm === "scrypt" && parsed.salt !== undefined) {
    return { kind: "scrypt", hash: parsed.hash.value, encoding, salt: bytesOf(parsed.salt), n: parsed.cost ?? 16384 };
  }
  throw new Error(`unsupported auth0 algorithm ${parsed.algorithm}`);
}

/** Logto's legacy `[digest, [salt, "@"], hex]`, "@" standing for the password. */
function fromLogto(json: string): ExplicitPasswordHash {
  const [digest, [first, second], hash] = JSON.parse(json) as ["sha256", [string, string], string];
  const suffix = first === "@";
  return { kind: "digest", digest, hash, encoding: "hex", salt: suffix ? second : first, saltPosition: suffix ? "suffix" : "prefix" };
}

/** The explicit format of a vector that has no self-describing prefix, or undefined if it has one. */
export function explicitFormatOf(vector: HashVector): ExplicitPasswordHash | undefined {
  const hexDigest = HEX_DIGESTS[vector.format];
  if (hexDigest !== undefined) return { kind: "digest", digest: hexDigest, hash: vector.hash, encoding: "hex" };
  if (vector.format === "auth0-md5-salted") {
    return { kind: "digest", digest: "md5", hash: vector.hash, encoding: vector.encoding ?? "hex", salt: vector.salt ?? "", saltPosition: vector.salt_position ?? "prefix" };
  }
  if (vector.format === "auth0-custom") return fromAuth0(vector.hash);
  if (vector.format === "logto-legacy") return fromLogto(vector.hash);
  return undefined;
}
