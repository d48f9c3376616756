/** Why a stored hash (or a password) was refused. */
export type HashRejectionReason = "unknown-format" | "malformed" | "cost-out-of-range" | "password-too-long" | "invalid-password";

/** A refusal with an English message. The message names a field, never the hash itself. */
export interface HashRejection {
  readonly reason: HashRejectionReason;
  readonly message: string;
}

export function unknownFormat(): HashRejection {
  return { reason: "unknown-format", message: "the password hash is not in a supported format" };
}

/** `scheme` and `field` are our own constants, never text taken from the hash. */
export function malformed(scheme: string, field: string, problem: string): HashRejection {
  return { reason: "malformed", message: `${scheme} hash: ${field} ${problem}` };
}

export function costOutOfRange(scheme: string, field: string, limits: string): HashRejection {
  return { reason: "cost-out-of-range", message: `${scheme} hash: ${field} is out of range (${limits})` };
}

/** The derived-key (digest) length bound PBKDF2, scrypt and argon2 share. */
export function checkDerivedKeyLength(
  scheme: string,
  length: number,
  bounds: { readonly minDerivedKeyBytes: number; readonly maxDerivedKeyBytes: number },
): HashRejection | undefined {
  if (length >= bounds.minDerivedKeyBytes && length <= bounds.maxDerivedKeyBytes) return undefined;
  return costOutOfRange(scheme, "hash length", `${bounds.minDerivedKeyBytes}..${bounds.maxDerivedKeyBytes} bytes`);
}

export function passwordTooLong(maxBytes: number): HashRejection {
  return { reason: "password-too-long", message: `the password is longer than ${maxBytes} bytes` };
}

/** A stored hash longer than this is refused unread: no supported format comes near it. */
export const MAX_HASH_LENGTH = 4096;

export function hashNotText(): HashRejection {
  return { reason: "malformed", message: "the password hash is not a string" };
}

export function hashTooLong(): HashRejection {
  return { reason: "malformed", message: `the password hash is longer than ${MAX_HASH_LENGTH} characters` };
}

export function notParsedHash(): HashRejection {
  return { reason: "malformed", message: "the parsed password hash is not one parsePasswordHash returned" };
}

/** `bytesAllowed`: verification also takes the password as raw bytes, hashing does not. */
/** A password string that is not Unicode text: compared as UTF-8, it would match the password with U+FFFD in that place. */
export function passwordNotUnicode(): HashRejection {
  return { reason: "invalid-password", message: "the password holds an unpaired surrogate (U+D800 to U+DFFF), which no text has" };
}

export function passwordNotText(bytesAllowed: boolean): HashRejection {
  return { reason: "invalid-password", message: bytesAllowed ? "the password is neither a string nor bytes" : "the password is not a string" };
}
