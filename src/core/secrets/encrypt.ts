import type { Keys } from "../../ports/keys.js";
import type { RandomSource } from "../../ports/random-source.js";
import { decodeLenientBase64, encodeBase64 } from "../../shared/base64.js";
import { keySetById } from "./codes.js";

const IV_BYTES = 12;

/** A secret as it is kept: the key's id and the sealed bytes in base64. */
export type EncryptedSecret = { readonly algorithm: "AES-256-GCM"; readonly keyId: string; readonly crypted: string };

/** AES-256-GCM with Web Crypto; the stored value is the IV followed by ciphertext and tag. */
export async function encryptSecret(plain: Uint8Array, keys: Keys, random: RandomSource): Promise<EncryptedSecret> {
  const key = await crypto.subtle.importKey("raw", keys.encryptionKey as Uint8Array<ArrayBuffer>, { name: "AES-GCM" }, false, ["encrypt"]);
  const iv = random.fill(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, plain as Uint8Array<ArrayBuffer>));
  const stored = new Uint8Array(IV_BYTES + sealed.length);
  stored.set(iv);
  stored.set(sealed, IV_BYTES);
  return { algorithm: "AES-256-GCM", keyId: keys.keyId, crypted: encodeBase64(stored) };
}

/**
 * The plain bytes of a secret `encryptSecret` sealed, under the key set it names (the current one
 * or one a rotation retired); undefined when that key is unknown, or the bytes were changed.
 */
export async function decryptSecret(stored: EncryptedSecret, keys: Keys): Promise<Uint8Array | undefined> {
  const keySet = keySetById(keys, stored.keyId);
  const sealed = decodeLenientBase64(stored.crypted);
  if (keySet === undefined || sealed === undefined || stored.algorithm !== "AES-256-GCM" || sealed.length < IV_BYTES) return undefined;
  try {
    const key = await crypto.subtle.importKey("raw", keySet.encryptionKey as Uint8Array<ArrayBuffer>, { name: "AES-GCM" }, false, ["decrypt"]);
    const iv = sealed.slice(0, IV_BYTES);
    return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv }, key, sealed.slice(IV_BYTES)));
  } catch {
    // A wrong key or changed bytes fail the tag check: there is no secret to give.
    return undefined;
  }
}
