import { err, ok, type Result } from "neverthrow";
import type { AttestedPasskey } from "../../ports/passkeys.js";
import { encodeBase64 } from "../../shared/base64.js";
import { passkeyClaim } from "../claims.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { noCodePending, passkeyAttestation, passkeyExpired, passkeyNotPending, passkeysNotConfigured, userNotFound } from "../errors/user-errors.js";
import type { UserEventDraft } from "../events/user-events.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import type { VerifyPasskeyRegistrationResponse } from "../responses.js";
import { requestedUserId } from "../schemas/user-id.js";
import { parseVerifyPasskey, verifyPasskeyFields, verifyPasskeyShape, type VerifyPasskeyInput } from "../schemas/verify-passkey-registration.js";
import { entryOf } from "../users/entry-of.js";
import type { PasskeyState } from "../users/user-state.js";
import { changeResponse } from "./change-response.js";
import type { Command } from "./command.js";
import { callPort } from "./port-call.js";
import { logSafely } from "../../shared/host-calls.js";
import { passkeyTimeoutSeconds } from "./register-passkey.js";

type Attestation = Promise<Result<AttestedPasskey, ErrorBody>>;

// One verification per call: a lost race decides again on the same request and challenge.
const attestations = new WeakMap<VerifyPasskeyInput, Map<string, Attestation>>();

function logRefusal(ports: ResolvedPorts, reason: string): void {
  // A broken logger must not turn a clean answer into a rejection.
  logSafely(ports.logger, "warn", { reason }, "human-users: passkey attestation refused");
}

function verifyAttestation(ports: ResolvedPorts, parsed: VerifyPasskeyInput, passkey: PasskeyState, origins: readonly string[]): Attestation {
  let byChallenge = attestations.get(parsed);
  if (byChallenge === undefined) attestations.set(parsed, (byChallenge = new Map()));
  let attestation = byChallenge.get(passkey.challenge);
  if (attestation === undefined) {
    attestation = (async () => {
      const check = { credential: parsed.credential, challenge: passkey.challenge, rpId: passkey.rpId, origins };
      const verified = await callPort("passkey verification", ports.logger, () => ports.passkeys.verifyRegistration(check));
      if (verified.isErr()) return err(verified.error);
      if (verified.value.isErr()) {
        logRefusal(ports, verified.value.error);
        return err(passkeyAttestation());
      }
      return ok(verified.value.value);
    })();
    byChallenge.set(passkey.challenge, attestation);
  }
  return attestation;
}

/**
 * ZITADEL's `VerifyPasskeyRegistration` (`POST /v2/users/{userId}/passkeys/{passkeyId}`):
 * the attestation checked against the registration's challenge, relying party and origins, and
 * the credential stored. The signed challenge is the proof: no requester is needed. A registration
 * verifies once and within its timeout; a registration begun with a link's code redeems the code.
 * A credential registered to any user already (this one included) answers 6 and stores nothing.
 */
export const verifyPasskeyRegistrationCommand: Command<VerifyPasskeyInput, VerifyPasskeyRegistrationResponse> = {
  name: "verifyPasskeyRegistration",
  fields: verifyPasskeyFields,
  shape: verifyPasskeyShape,
  access: () => ({ permission: "user.write", proof: true }),
  target: (request) => ({ userId: requestedUserId(request) }),
  parse: parseVerifyPasskey,
  async decide({ ports, parsed, user, now }) {
    if (user === undefined) return err(userNotFound());
    const settings = ports.config?.passkeys;
    if (settings === undefined) return err(passkeysNotConfigured());
    const passkey = entryOf(user.passkeys, parsed.passkeyId);
    // Unknown, or verified already: a replayed attestation finds nothing waiting.
    if (passkey === undefined || passkey.credential !== undefined) return err(passkeyNotPending());
    if (now.getTime() > Date.parse(passkey.startedAt) + passkeyTimeoutSeconds(settings) * 1000) return err(passkeyExpired());
    // The link's code may have been redeemed meanwhile by another registration.
    if (passkey.codeId !== undefined && entryOf(user.passwordlessCodes, passkey.codeId) === undefined) return err(noCodePending("passwordless"));

    const attested = await verifyAttestation(ports, parsed, passkey, settings.origins);
    if (attested.isErr()) return err(attested.error);
    const credential = attested.value;
    const events: UserEventDraft[] = [
      {
        type: "user.human.passwordless.token.verified",
        payload: {
          webAuthNTokenId: passkey.id,
          keyId: credential.credentialId,
          publicKey: encodeBase64(credential.publicKey),
          attestationType: credential.attestationType,
          aaguid: credential.aaguid,
          signCount: credential.signCount,
          webAuthNTokenName: parsed.name,
          rpID: passkey.rpId,
          userVerified: credential.userVerified,
          backedUp: credential.backedUp,
        },
      },
    ];
    if (passkey.codeId !== undefined) events.push({ type: "user.human.passwordless.initialization.code.check.succeeded", payload: { id: passkey.codeId } });
    // WebAuthn: a credential id registered to any user already fails the ceremony (6, by the claim).
    return ok({ userId: user.userId, events, claims: [passkeyClaim(credential.credentialId)], respond: (facts) => ok(changeResponse(facts)) });
  },
};
