/**
 * Password hashes on their own: parse, verify and create them, in every format `importHumanUser` accepts. See docs/passwords-and-migration.md.
 *
 * @module human-users/passwords
 */
export { defaultHashBounds, resolveHashBounds, type HashBounds } from "./bounds.js";
export type { HashRejection, HashRejectionReason } from "./rejection.js";
export type { ParsedPasswordHash, PasswordHashFamily } from "./parsed.js";
export type { Argon2Hash } from "./formats/argon2.js";
export type { BcryptHash } from "./formats/bcrypt.js";
export type { FirebaseScryptHash } from "./formats/firebase-scrypt.js";
export type { HmacHash } from "./formats/hmac.js";
export type { Md5CryptHash } from "./formats/md5-crypt.js";
export type { Pbkdf2Hash } from "./formats/pbkdf2.js";
export type { PhpassHash } from "./formats/phpass.js";
export type { SaltedDigestHash, TemplatePart } from "./formats/salted-digest.js";
export type { ScryptHash } from "./formats/scrypt.js";
export type { ShaCryptHash } from "./formats/sha-crypt.js";
export type { PasswordHasher } from "./hashers/hasher.js";
export { argon2idHasher, type Argon2idParams } from "./hashers/argon2id.js";
export { scryptHasher, type ScryptParams as ScryptHasherParams } from "./hashers/scrypt.js";
export { bcryptHasher } from "./hashers/bcrypt.js";
export { pbkdf2Sha256Hasher } from "./hashers/pbkdf2-sha256.js";
export { defaultPasswordHasher } from "./hashers/default.js";
export {
  hashPassword,
  parsePasswordHash,
  verifyParsedPassword,
  verifyPassword,
  type PasswordVerification,
  type VerifyPasswordOptions,
} from "./verify.js";
export {
  parseExplicitPasswordHash,
  verifyPasswordWithFormat,
  type ExplicitBytes,
  type ExplicitDigest,
  type ExplicitEncoding,
  type ExplicitPasswordHash,
} from "./explicit.js";
export { useNativeImplementations } from "./primitives/native.js";
