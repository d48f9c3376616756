// Passkey registration through @simplewebauthn/server: the library writes no WebAuthn by hand.
import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON } from "@simplewebauthn/server";
import { err, ok } from "neverthrow";
import type { PasskeyCeremonies } from "../ports/passkeys.js";
import { decodeBase64Url, decodeLenientBase64 } from "../shared/base64.js";
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
 * The client data as the browser wrote it, read from the credential's `response.clientDataJSON`;
 * undefined when that is not plain base64url of a JSON object. @simplewebauthn reads a character
 * outside base64url as if it were "A": read any other way, such a text could say one thing to the
 * verification and another to the checks here, so it is refused.
 */
function clientDataOf(credential: unknown): { readonly crossOrigin?: unknown; readonly topOrigin?: unknown } | undefined {
  const response = (credential as { response?: { clientDataJSON?: unknown } } | undefined)?.response;
  const encoded = response?.clientDataJSON;
  const bytes = typeof encoded === "string" ? decodeBase64Url(encoded) : undefined;
  if (bytes === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    return typeof parsed === "object" && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
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
    // Read first, the way the verification reads it, so that a text it could read otherwise never reaches it.
    const clientData = clientDataOf(check.credential);
    if (clientData === undefined) return err("the client data is not base64url of a JSON object");
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
      // A relying party that never embeds its login refuses a creation in a frame of another site.
      // WebAuthn: crossOrigin is a boolean, and a topOrigin is there only for such a frame.
      if (clientData.crossOrigin !== undefined && typeof clientData.crossOrigin !== "boolean") return err("the client data's crossOrigin is not true or false");
      if (clientData.crossOrigin === true || clientData.topOrigin !== undefined) return err("the passkey was created in a frame of another site (crossOrigin, topOrigin)");
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
