/** Why a stored hash (or a password) was refused. */
export type HashRejectionReason = "unknown-format" | "malformed" | "cost-out-of-range" | "password-too-long";

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

export function passwordTooLong(maxBytes: number): HashRejection {
  return { reason: "password-too-long", message: `the password is longer than ${maxBytes} bytes` };
}
