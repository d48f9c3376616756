/**
 * Whether `salt` is one crypt(3) takes for md5-crypt and sha-crypt: printable ASCII but `$`
 * (which ends it), `!`, `*`, `:`, `;`, `\` and the space. Crypt itself only makes salts of
 * `./0-9A-Za-z`, but libxcrypt checks hashes made with the others (a system that chose its own
 * salts), and refused here, such a user's import would fail.
 */
export function isCryptSalt(salt: string): boolean {
  return /^[\x22\x23\x25-\x29\x2b-\x39\x3c-\x5b\x5d-\x7e]*$/.test(salt);
}

/** The characters `isCryptSalt` takes, in words, for a refusal. */
export const CRYPT_SALT_CHARACTERS = "printable ASCII characters but $!*:;\\ and space";
