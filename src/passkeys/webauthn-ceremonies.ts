// Passkey registration through @simplewebauthn/server: the library writes no WebAuthn by hand.
import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON } from "@simplewebauthn/server";
import { err, ok } from "neverthrow";
import type { PasskeyCeremonies } from "../ports/passkeys.js";
import { decodeLenientBase64 } from "../shared/base64.js";
import { utf8 } from "../shared/bytes.js";
import type { JsonObject } from "../shared/json.js";

/** A copy on a plain ArrayBuffer, the only kind the library's types take. */
function plainBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(new ArrayBuffer(bytes.length));
  copy.set(bytes);
  return copy;
}

function reasonOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : "the attestation could not be read";
}

/** WebAuthn's longest credential id, in bytes: a longer one fails the ceremony (registration step 7.1). */
const MAX_CREDENTIAL_ID_BYTES = 1023;

/**
 * Whether the browser says the creation ran in a frame of another site (`clientData.crossOrigin`),
 * which a relying party that never embeds its login refuses. The verification has read the
 * client data already; a value it could not read is no reason here.
 */
function isCrossOrigin(credential: unknown): boolean {
  const response = (credential as { response?: { clientDataJSON?: unknown } } | undefined)?.response;
  const encoded = response?.clientDataJSON;
  const bytes = typeof encoded === "string" ? decodeLenientBase64(encoded) : undefined;
  if (bytes === undefined) return false;
  try {
    return (JSON.parse(new TextDecoder().decode(bytes)) as { crossOrigin?: unknown }).crossOrigin === true;
  } catch {
    return false;
  }
}

/**
 * WebAuthn for passkeys: discoverable credentials with user verification (what makes a passkey
 * a password replacement), no attestation asked (ZITADEL's default).
 */
export const webAuthnCeremonies: PasskeyCeremonies = {
  async creationOptions(creation) {
    const options = await generateRegistrationOptions({
      rpID: creation.rpId,
      rpName: creation.rpName,
      userID: plainBytes(utf8(creation.userId)),
      userName: creation.userName,
      userDisplayName: creation.displayName,
      challenge: plainBytes(decodeLenientBase64(creation.challenge) ?? utf8(creation.challenge)),
      timeout: creation.timeoutMs,
      attestationType: "none",
      excludeCredentials: creation.excludeCredentialIds.map((id) => ({ id })),
      authenticatorSelection: {
        residentKey: "required",
        userVerification: "required",
        ...(creation.attachment !== undefined ? { authenticatorAttachment: creation.attachment } : {}),
      },
    });
    // Plain JSON already (strings, numbers, lists); the round trip drops undefined members.
    return JSON.parse(JSON.stringify(options)) as JsonObject;
  },

  async verifyRegistration(check) {
    try {
      const verified = await verifyRegistrationResponse({
        // Its shape is checked by the verification itself; a malformed one throws, which is a refusal.
        response: check.credential as unknown as RegistrationResponseJSON,
        expectedChallenge: check.challenge,
        expectedOrigin: [...check.origins],
        expectedRPID: check.rpId,
        requireUserVerification: true,
      });
      if (!verified.verified) return err("the attestation does not verify");
      const info = verified.registrationInfo;
      if ((decodeLenientBase64(info.credential.id)?.length ?? Infinity) > MAX_CREDENTIAL_ID_BYTES) return err(`the credential id is longer than ${MAX_CREDENTIAL_ID_BYTES} bytes`);
      if (isCrossOrigin(check.credential)) return err("the passkey was created in a frame of another site (crossOrigin)");
      return ok({
        credentialId: info.credential.id,
        publicKey: info.credential.publicKey,
        signCount: info.credential.counter,
        aaguid: info.aaguid,
        attestationType: info.fmt,
        userVerified: info.userVerified,
        backedUp: info.credentialBackedUp,
      });
    } catch (cause) {
      return err(reasonOf(cause));
    }
  },
};
