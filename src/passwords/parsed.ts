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

/** A fully understood stored hash; `family` tells which members it has. */
export type ParsedPasswordHash =
  | BcryptHash
  | Argon2Hash
  | ScryptHash
  | FirebaseScryptHash
  | Pbkdf2Hash
  | Md5CryptHash
  | ShaCryptHash
  | PhpassHash
  | SaltedDigestHash
  | HmacHash;

/** The family of a parsed hash (`bcrypt`, `argon2`, `scrypt`, ...). */
export type PasswordHashFamily = ParsedPasswordHash["family"];
