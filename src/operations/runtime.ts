import { err, ok } from "neverthrow";
import type { CommandRuntime } from "../core/resolved-ports.js";
import { deliverAfterWrite, leaseForWrite } from "../notifications/after-write.js";
import { beginCommand } from "../notifications/pending-records.js";
import { lazyWebAuthnCeremonies } from "../passkeys/lazy-ceremonies.js";
import { resolveHashBounds } from "../passwords/bounds.js";
import { checkCostBudget, NOMINAL_PASSWORD_BYTES } from "../passwords/budget.js";
import { defaultPasswordHasher } from "../passwords/hashers/default.js";
import { hashingPaths, settledHashingPaths } from "../passwords/primitives/paths.js";
import { withFirebaseProjectKey } from "../passwords/dispatch.js";
import { parsePasswordHash, verifyPassword } from "../passwords/verify.js";
import { firebaseSignerKeyBytes } from "../shared/firebase-signer-key.js";
import type { PasswordHashing, Ports } from "../ports/index.js";

const READY: Promise<void> = Promise.resolve();

/** Password hashing from the ports' hasher and bounds, with `human-users/passwords`. */
export function passwordHashing(ports: Ports): PasswordHashing {
  // Started now, so that the lookup overlaps the first call's directory reads rather than follows them.
  hashingPaths().catch(() => undefined);
  const hasher = ports.passwordHasher ?? defaultPasswordHasher;
  const bounds = resolveHashBounds(ports.hashBounds);
  const firebaseSignerKey = ports.firebaseSignerKey;
  const signerKey = firebaseSignerKeyBytes(firebaseSignerKey);
  const refusalOf = (encoded: string): string | undefined => {
    // A Firebase hash that leaves the signer key to the project cannot be checked without it.
    const parsed = parsePasswordHash(encoded, bounds).andThen((hash) => withFirebaseProjectKey(hash, signerKey));
    if (parsed.isErr()) return parsed.error.message;
    // parsePasswordHash costs a hash as on a runtime with native code. Where this one would run it
    // in pure JS, every verification would refuse it as over the budget: so is the import.
    const paths = settledHashingPaths();
    return paths === undefined ? undefined : checkCostBudget(parsed.value, bounds.maxEstimatedCostMs, { paths, passwordBytes: NOMINAL_PASSWORD_BYTES })?.message;
  };
  return {
    // A hash the bounds refuse would fail every later check of it (13) and lock its user out, so
    // it is never handed out to be stored: the hashing fails instead, saying what to change.
    async hash(password) {
      const encoded = await hasher.hash(password);
      const refusal = refusalOf(encoded);
      if (refusal !== undefined) {
        throw new Error(`the configured password hasher (${hasher.name}) made a hash that hashBounds refuses (${refusal}): lower its cost or widen hashBounds`);
      }
      return encoded;
    },
    // Once the paths are known, one settled promise for every call, with no frame of its own.
    ready: () => (settledHashingPaths() !== undefined ? READY : hashingPaths().then(() => undefined)),
    refusalOf,
    maxPasswordBytes: bounds.maxPasswordBytes,
    async verify(encoded, password) {
      let failure: { readonly cause: unknown } | undefined;
      const onInternalError = (cause: unknown): void => {
        failure = { cause };
      };
      const checked = await verifyPassword(encoded, password, firebaseSignerKey === undefined ? { bounds, hasher, onInternalError } : { bounds, hasher, firebaseSignerKey, onInternalError });
      // The port failed (the host's hasher, a primitive): thrown, so that the operation logs the
      // cause and answers its own 13, as for every other port.
      if (failure !== undefined) throw failure.cause;
      return checked.isOk() ? ok(checked.value) : err(checked.error);
    },
  };
}

/** What the core is given: delivery through the outbox, hashing from `human-users/passwords`, and WebAuthn. */
export const runtime: CommandRuntime = {
  deliver: deliverAfterWrite,
  leaseForWrite,
  beginCommand,
  passwordHashing,
  passkeys: lazyWebAuthnCeremonies,
};
