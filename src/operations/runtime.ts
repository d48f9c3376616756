import { err, ok } from "neverthrow";
import type { CommandRuntime } from "../core/resolved-ports.js";
import { deliverAfterWrite, leaseForWrite } from "../notifications/after-write.js";
import { lazyWebAuthnCeremonies } from "../passkeys/lazy-ceremonies.js";
import { resolveHashBounds } from "../passwords/bounds.js";
import { defaultPasswordHasher } from "../passwords/hashers/default.js";
import { parsePasswordHash, verifyPassword } from "../passwords/verify.js";
import type { PasswordHashing, Ports } from "../ports/index.js";

/** Password hashing from the ports' hasher and bounds, with `human-users/passwords`. */
export function passwordHashing(ports: Ports): PasswordHashing {
  const hasher = ports.passwordHasher ?? defaultPasswordHasher;
  const bounds = resolveHashBounds(ports.hashBounds);
  return {
    hash: (password) => hasher.hash(password),
    refusalOf(encoded) {
      const parsed = parsePasswordHash(encoded, bounds);
      return parsed.isErr() ? parsed.error.message : undefined;
    },
    async verify(encoded, password) {
      const checked = await verifyPassword(encoded, password, { bounds, hasher });
      return checked.isOk() ? ok(checked.value) : err(checked.error);
    },
  };
}

/** What the core is given: delivery through the outbox, hashing from `human-users/passwords`, and WebAuthn. */
export const runtime: CommandRuntime = {
  deliver: deliverAfterWrite,
  leaseForWrite,
  passwordHashing,
  passkeys: lazyWebAuthnCeremonies,
};
