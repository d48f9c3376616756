// SHA-256 and HMAC-SHA256, one function each: the runtime's node:crypto where it has one (faster
// than pure JavaScript, also for the short inputs of codes: bench/sha256.bench.ts), else
// @noble/hashes. The core stays runtime-agnostic: node:crypto is never imported, only asked for
// once through `process.getBuiltinModule` (Node 20.16 and later, Bun, Deno); both give the same bytes.
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { encodeBase64, encodeBase64Url } from "../../shared/base64.js";

/** Text is digested as its UTF-8 bytes. */
export type DigestInput = Uint8Array | string;

/** The two primitives, as one implementation gives them. */
export interface Sha256Implementation {
  /** Where the digests come from: `node:crypto` or `@noble/hashes`. */
  readonly name: "node:crypto" | "@noble/hashes";
  sha256(message: DigestInput): Uint8Array;
  /** The same digest as URL-safe base64 without padding (RFC 4648 §5). */
  sha256Base64Url(message: DigestInput): string;
  hmacSha256(key: Uint8Array, message: DigestInput): Uint8Array;
  /** The same HMAC as standard base64 with padding (RFC 4648 §4), as codes are stored. */
  hmacSha256Base64(key: Uint8Array, message: DigestInput): string;
}

/** The part of node:crypto used here, typed structurally so that no Node types reach the core. */
interface NodeCrypto {
  createHmac(algorithm: "sha256", key: Uint8Array): { update(data: DigestInput): NodeDigest };
  createHash(algorithm: "sha256"): { update(data: DigestInput): { digest(): Uint8Array } };
  /** One-shot digest, Node 20.12 and later. */
  hash?: unknown;
}

/** A node:crypto HMAC's result: the bytes, or the text in the encoding asked for. */
interface NodeDigest {
  digest(): Uint8Array;
  digest(outputEncoding: "base64"): string;
}

/** node:crypto's one-shot digest: the bytes, or the text in the encoding asked for. */
interface OneShotHash {
  hash(algorithm: "sha256", data: DigestInput, outputEncoding: "buffer"): Uint8Array;
  hash(algorithm: "sha256", data: DigestInput, outputEncoding: "base64url"): string;
}

function hasOneShotHash(crypto: NodeCrypto): crypto is NodeCrypto & OneShotHash {
  return typeof crypto.hash === "function";
}

/** What the runtime offers to find node:crypto with: `globalThis` in production, anything in tests. */
export interface RuntimeGlobals {
  readonly process?: { readonly getBuiltinModule?: (id: string) => unknown } | undefined;
}

const encoder = new TextEncoder();

function bytesOf(message: DigestInput): Uint8Array {
  return typeof message === "string" ? encoder.encode(message) : message;
}

type KeyedHmac = ReturnType<typeof hmac.create>;

// The key's padded inner and outer states are computed once per key and cloned per message: that
// halves the work of every short message's HMAC.
const keyedStates = new WeakMap<Uint8Array, KeyedHmac>();

function nobleHmacSha256(key: Uint8Array, message: DigestInput): Uint8Array {
  let keyed = keyedStates.get(key);
  if (keyed === undefined) {
    keyed = hmac.create(nobleSha256, key);
    keyedStates.set(key, keyed);
  }
  return keyed.clone().update(bytesOf(message)).digest();
}

/** Pure JavaScript, for runtimes without node:crypto. */
export const nobleSha256Implementation: Sha256Implementation = {
  name: "@noble/hashes",
  sha256: (message) => nobleSha256(bytesOf(message)),
  sha256Base64Url: (message) => encodeBase64Url(nobleSha256(bytesOf(message))),
  hmacSha256: nobleHmacSha256,
  hmacSha256Base64: (key, message) => encodeBase64(nobleHmacSha256(key, message)),
};

function isNodeCrypto(value: unknown): value is NodeCrypto {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<Record<keyof NodeCrypto, unknown>>;
  return typeof candidate.createHmac === "function" && typeof candidate.createHash === "function";
}

function nodeImplementation(crypto: NodeCrypto): Sha256Implementation {
  const hmacSha256 = (key: Uint8Array, message: DigestInput) => crypto.createHmac("sha256", key).update(message).digest();
  // The runtime writes the text itself: no bytes handed back to be encoded in JavaScript.
  const hmacSha256Base64 = (key: Uint8Array, message: DigestInput) => crypto.createHmac("sha256", key).update(message).digest("base64");
  if (hasOneShotHash(crypto)) {
    return {
      name: "node:crypto",
      sha256: (message) => crypto.hash("sha256", message, "buffer"),
      // The runtime writes the text itself: no bytes handed back to be encoded in JavaScript.
      sha256Base64Url: (message) => crypto.hash("sha256", message, "base64url"),
      hmacSha256,
      hmacSha256Base64,
    };
  }
  const sha256 = (message: DigestInput) => crypto.createHash("sha256").update(message).digest();
  return {
    name: "node:crypto",
    sha256,
    sha256Base64Url: (message) => encodeBase64Url(sha256(message)),
    hmacSha256,
    hmacSha256Base64,
  };
}

/** node:crypto's digests where `runtime` has them, else @noble/hashes'. Never throws. */
export function sha256Implementation(runtime: RuntimeGlobals): Sha256Implementation {
  let crypto: unknown;
  try {
    crypto = runtime.process?.getBuiltinModule?.("node:crypto");
  } catch {
    crypto = undefined;
  }
  return isNodeCrypto(crypto) ? nodeImplementation(crypto) : nobleSha256Implementation;
}

let chosen: Sha256Implementation | undefined;

/** The implementation in use: looked up on first use, then kept. */
export function currentSha256Implementation(): Sha256Implementation {
  chosen ??= sha256Implementation(globalThis as RuntimeGlobals);
  return chosen;
}

/** SHA-256 of `message`. */
export function sha256(message: DigestInput): Uint8Array {
  return currentSha256Implementation().sha256(message);
}

/** SHA-256 of `message` as URL-safe base64 without padding. */
export function sha256Base64Url(message: DigestInput): string {
  return currentSha256Implementation().sha256Base64Url(message);
}

/** HMAC-SHA256 of `message` under `key` (RFC 2104). */
export function hmacSha256(key: Uint8Array, message: DigestInput): Uint8Array {
  return currentSha256Implementation().hmacSha256(key, message);
}

/** HMAC-SHA256 of `message` under `key`, as standard base64 with padding. */
export function hmacSha256Base64(key: Uint8Array, message: DigestInput): string {
  return currentSha256Implementation().hmacSha256Base64(key, message);
}
