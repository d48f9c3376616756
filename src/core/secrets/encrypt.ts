import type { Keys } from "../../ports/keys.js";
import type { RandomSource } from "../../ports/random-source.js";
import { encodeBase64 } from "../../shared/base64.js";

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
