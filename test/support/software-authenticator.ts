// A software authenticator for tests: an ES256 key pair made with node:crypto, answering
// `navigator.credentials.create` options with a "none" attestation (or a "packed" self
// attestation that signs the challenge), built byte by byte as WebAuthn lays it out. No browser.
import { createHash, createSign, generateKeyPairSync, type KeyObject } from "node:crypto";
import { encodeCbor } from "./cbor.js";

export interface CreationOptions {
  readonly publicKey: { readonly challenge: string; readonly rp: { readonly id: string } };
}

export interface MakeCredential {
  /** The page the browser was on. */
  readonly origin: string;
  /** Default "none". */
  readonly attestation?: "none" | "packed";
  /** The relying party the authenticator thinks it talks to; default the options' one. */
  readonly rpId?: string;
  /** Default true: the person was verified (PIN, fingerprint). */
  readonly userVerified?: boolean;
  /** Default false: the page was not in a frame of another site. */
  readonly crossOrigin?: boolean;
  /** Members put into the client data as they are, over the ones above (a `topOrigin`, a `crossOrigin` of another type). */
  readonly clientData?: Readonly<Record<string, unknown>>;
}

function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64url");
}

function sha256(bytes: Uint8Array | string): Uint8Array {
  return createHash("sha256").update(bytes).digest();
}

function uint32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

export interface SoftwareAuthenticator {
  /** base64url. */
  readonly credentialId: string;
  /** The credential's COSE public key, standard base64 (as the stored event keeps it). */
  readonly publicKey: string;
  /** The browser's `PublicKeyCredential.toJSON()` for these options. */
  create(options: CreationOptions, how: MakeCredential): Record<string, unknown>;
}

/** `idLength`: the credential id's bytes (WebAuthn allows at most 1023). */
export function softwareAuthenticator(seed = 1, idLength = 16): SoftwareAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const coordinate = (value: string | undefined) => Uint8Array.from(Buffer.from(value ?? "", "base64url"));
  // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
  const coseKey = encodeCbor(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, coordinate(jwk.x)], [-3, coordinate(jwk.y)]]));
  const credentialId = new Uint8Array(idLength).fill(seed);
  return {
    credentialId: base64url(credentialId),
    publicKey: Buffer.from(coseKey).toString("base64"),
    create(options, how) {
      const rpId = how.rpId ?? options.publicKey.rp.id;
      const clientData = new TextEncoder().encode(
        JSON.stringify({ type: "webauthn.create", challenge: options.publicKey.challenge, origin: how.origin, crossOrigin: how.crossOrigin ?? false, ...how.clientData }),
      );
      // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
      const flags = 0x41 | (how.userVerified === false ? 0 : 0x04);
      const authData = Uint8Array.from([
        ...sha256(rpId),
        flags,
        ...uint32(0),
        ...new Uint8Array(16), // AAGUID: none
        credentialId.length >> 8,
        credentialId.length & 0xff,
        ...credentialId,
        ...coseKey,
      ]);
      const attStmt = how.attestation === "packed" ? packedSelfAttestation(privateKey, authData, clientData) : new Map();
      const attestationObject = encodeCbor(new Map<string, string | Uint8Array | ReadonlyMap<string, number | Uint8Array>>([
        ["fmt", how.attestation ?? "none"],
        ["attStmt", attStmt],
        ["authData", authData],
      ]));
      return {
        id: base64url(credentialId),
        rawId: base64url(credentialId),
        type: "public-key",
        response: { clientDataJSON: base64url(clientData), attestationObject: base64url(attestationObject), transports: ["internal"] },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },
  };
}

/** Self attestation: the credential's own key signs authenticatorData || SHA-256(clientDataJSON), and so the challenge. */
function packedSelfAttestation(key: KeyObject, authData: Uint8Array, clientData: Uint8Array): ReadonlyMap<string, number | Uint8Array> {
  const signer = createSign("SHA256");
  signer.update(authData);
  signer.update(sha256(clientData));
  return new Map<string, number | Uint8Array>([["alg", -7], ["sig", Uint8Array.from(signer.sign(key))]]);
}
