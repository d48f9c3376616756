import type { Result } from "neverthrow";
import type { JsonObject } from "../shared/json.js";

/** What a registration's creation options are made of. */
export interface PasskeyCreation {
  readonly rpId: string;
  readonly rpName: string;
  /** The user's id, which authenticators keep as the credential's user handle. */
  readonly userId: string;
  readonly userName: string;
  readonly displayName: string;
  /** base64url: the bytes the authenticator must sign. */
  readonly challenge: string;
  readonly timeoutMs: number;
  /** Platform (built into the device) or cross-platform (a security key); absent: either. */
  readonly attachment?: "platform" | "cross-platform";
  /** base64url ids of the credentials the user has already, so that one authenticator is not registered twice. */
  readonly excludeCredentialIds: readonly string[];
}

/** What a registration's attestation is checked against. */
export interface PasskeyAttestationCheck {
  /** The browser's `PublicKeyCredential` as JSON (`id`, `rawId`, `type`, `response`, ...). */
  readonly credential: JsonObject;
  /** base64url: the challenge of the creation options. */
  readonly challenge: string;
  readonly rpId: string;
  readonly origins: readonly string[];
}

/** A credential whose attestation checked. */
export interface AttestedPasskey {
  /** base64url. */
  readonly credentialId: string;
  /** The COSE-encoded public key. */
  readonly publicKey: Uint8Array;
  readonly signCount: number;
  readonly aaguid: string;
  /** The attestation statement format (`none`, `packed`, ...). */
  readonly attestationType: string;
  readonly userVerified: boolean;
  readonly backedUp: boolean;
}

/**
 * The WebAuthn ceremonies passkey registration needs. The library builds it (with
 * `@simplewebauthn/server`); the core reaches WebAuthn only through it.
 */
export interface PasskeyCeremonies {
  /** The `publicKey` member of the options `navigator.credentials.create` takes, as JSON. */
  creationOptions(creation: PasskeyCreation): Promise<JsonObject>;
  /** The credential, or in words why its attestation does not check (wrong challenge, origin, signature, ...). */
  verifyRegistration(check: PasskeyAttestationCheck): Promise<Result<AttestedPasskey, string>>;
}
