import type { PasskeyCeremonies } from "../ports/passkeys.js";

type Loaded = typeof import("./webauthn-ceremonies.js");

let loading: Promise<Loaded> | undefined;

/** WebAuthn is loaded on the first passkey registration: hosts without passkeys never load it. */
function load(): Promise<Loaded> {
  loading ??= import("./webauthn-ceremonies.js");
  return loading;
}

/** `webAuthnCeremonies`, loaded when first used. */
export const lazyWebAuthnCeremonies: PasskeyCeremonies = {
  creationOptions: async (creation) => (await load()).webAuthnCeremonies.creationOptions(creation),
  verifyRegistration: async (check) => (await load()).webAuthnCeremonies.verifyRegistration(check),
};
