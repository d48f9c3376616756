import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import type { CodeKind, CodeSpec, HumanUsersConfig } from "../../ports/config.js";
import type { Keys } from "../../ports/keys.js";
import type { RandomSource } from "../../ports/random-source.js";
import { encodeBase64 } from "../../shared/base64.js";
import type { HashedCode } from "../events/user-events.js";

const UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const LETTERS_DIGITS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

export const defaultCodeSpecs: Readonly<Record<CodeKind, CodeSpec>> = Object.freeze({
  email: { length: 6, alphabet: UPPER_DIGITS, lifetimeSeconds: 3600 },
  phone: { length: 6, alphabet: UPPER_DIGITS, lifetimeSeconds: 3600 },
  init: { length: 6, alphabet: UPPER_DIGITS, lifetimeSeconds: 72 * 3600 },
  passwordless: { length: 12, alphabet: LETTERS_DIGITS, lifetimeSeconds: 3600 },
});

export function codeSpec(config: HumanUsersConfig | undefined, kind: CodeKind): CodeSpec {
  return { ...defaultCodeSpecs[kind], ...config?.codes?.[kind] };
}

/**
 * A code drawn from `random` without modulo bias: bytes at or above the largest multiple of the
 * alphabet's size are thrown away and drawn again.
 */
export function generateCode(spec: CodeSpec, random: RandomSource): string {
  const size = spec.alphabet.length;
  const limit = 256 - (256 % size);
  let code = "";
  const buffer = new Uint8Array(Math.max(16, spec.length * 2));
  while (code.length < spec.length) {
    random.fill(buffer);
    for (const byte of buffer) {
      if (byte >= limit) continue;
      code += spec.alphabet[byte % size];
      if (code.length === spec.length) break;
    }
  }
  return code;
}

type KeyedHmac = ReturnType<typeof hmac.create>;

// The key's padded inner and outer states are computed once per key and cloned per code: that
// halves the work of every code's hash.
const keyedStates = new WeakMap<Uint8Array, KeyedHmac>();
const encoder = new TextEncoder();

/** How a code is kept: its keyed hash, never the code. */
export function hashedCode(code: string, keys: Keys): HashedCode {
  let keyed = keyedStates.get(keys.codeHmacKey);
  if (keyed === undefined) {
    keyed = hmac.create(sha256, keys.codeHmacKey);
    keyedStates.set(keys.codeHmacKey, keyed);
  }
  const digest = keyed.clone().update(encoder.encode(code)).digest();
  return { algorithm: "HMAC-SHA256", keyId: keys.keyId, hash: encodeBase64(digest) };
}
