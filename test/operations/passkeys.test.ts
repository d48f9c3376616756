// Passkey registration end to end with a software authenticator (an ES256 key from node:crypto),
// on the memory store and on PostgreSQL: importHumanUser's link, registerPasskey with its code, the
// authenticator's answer, verifyPasskeyRegistration; then replays, expiry and wrong origins.
import { expect, describe, it } from "vitest";
import {
  createPasskeyRegistrationLink,
  registerPasskey,
  verifyPasskeyRegistration,
  type HumanUsersConfig,
  type Ports,
  type RegisterPasskeyResponse,
} from "../../src/index.js";
import { importHumanUser } from "../../src/index.js";
import { softwareAuthenticator, type CreationOptions } from "../support/software-authenticator.js";
import { annWithHash, cheapHash, details, event, imported, storeKinds, type Harness } from "./support/first-login.js";
import { id, storedCode } from "./support/import-fixtures.js";
import { instanceAdmin, invalidBody, member, plainError } from "./support/ports.js";

const kinds = await storeKinds("passkeys");

const ORIGIN = "https://login.acme.test";
const PASSKEYS: HumanUsersConfig = { passkeys: { rpId: "acme.test", rpName: "Acme", origins: [ORIGIN, "https://app.acme.test"] } };
const NOT_PENDING = plainError(3, "USER-pk0n", "no passkey registration with this id is waiting for verification");
const ATTESTATION = plainError(3, "USER-pkat", "the passkey attestation could not be verified");
const CODE_WRONG = plainError(3, "USER-c0d3", "the passkey registration code is not valid");
const NO_CODE = plainError(9, "USER-n0cd", "no passkey registration code is pending");

/** 32 bytes of `byte`, base64url: a challenge drawn from the stepping random source. */
function challengeOf(byte: number): string {
  return Buffer.alloc(32, byte).toString("base64url");
}

/** The whole options body registerPasskey answers for Ann (user id `userId`), as WebAuthn wants them. */
function expectedOptions(userId: string, challenge: string, excluded: readonly string[] = [], attachment?: string) {
  return {
    publicKey: {
      challenge,
      rp: { name: "Acme", id: "acme.test" },
      user: { id: Buffer.from(userId).toString("base64url"), name: "ann", displayName: "Ann Lee" },
      // EdDSA, ES256 and RS256 at least; newer runtimes offer ML-DSA too.
      pubKeyCredParams: expect.arrayContaining([
        { alg: -8, type: "public-key" },
        { alg: -7, type: "public-key" },
        { alg: -257, type: "public-key" },
      ]),
      timeout: 300_000,
      attestation: "none",
      excludeCredentials: excluded.map((credential) => ({ id: credential, type: "public-key" })),
      authenticatorSelection: {
        residentKey: "required",
        userVerification: "required",
        requireResidentKey: true,
        ...(attachment !== undefined ? { authenticatorAttachment: attachment } : {}),
      },
      extensions: { credProps: true },
      hints: [],
    },
  };
}

/** Ann imported with a passwordless registration link; the link's code id and code. */
async function annWithLink(ports: Ports): Promise<{ userId: string; codeId: string; code: string }> {
  const result = await importHumanUser(ports, { ...annWithHash(cheapHash("Old-Password-1")), requestPasswordlessRegistration: true }, { requester: instanceAdmin, orgId: "acme" });
  const body = result._unsafeUnwrap();
  const link = new URL(body.passwordlessRegistration?.link ?? "");
  return { userId: body.userId, codeId: link.searchParams.get("codeID") ?? "", code: link.searchParams.get("code") ?? "" };
}

function optionsOf(response: RegisterPasskeyResponse): CreationOptions {
  return response.publicKeyCredentialCreationOptions as unknown as CreationOptions;
}

describe.each(kinds)("passkey registration on $name", (kind) => {
  it("registers a passkey from importHumanUser's link: code, options, the authenticator's answer, verification", async () => {
    const { ports, eventsOf } = await kind.open({ config: PASSKEYS });
    const { userId, codeId, code } = await annWithLink(ports);
    expect([codeId, code]).toEqual([id(2), "aaaaaaaaaaaa"]);

    // No requester: the link's code is the proof.
    const registered = (await registerPasskey(ports, { userId, code: { id: codeId, code }, authenticator: "PASSKEY_AUTHENTICATOR_PLATFORM" }))._unsafeUnwrap();
    expect(registered).toEqual({ details: details(4), passkeyId: id(3), publicKeyCredentialCreationOptions: expectedOptions(userId, challengeOf(1), [], "platform") });

    const authenticator = softwareAuthenticator();
    const credential = authenticator.create(optionsOf(registered), { origin: ORIGIN });
    expect((await verifyPasskeyRegistration(ports, { userId, passkeyId: id(3), publicKeyCredential: credential, passkeyName: " Laptop " }))._unsafeUnwrap()).toEqual({
      details: details(6),
    });
    expect(await eventsOf(userId, 3)).toEqual([
      event(userId, 4, "user.human.passwordless.token.added", { webAuthNTokenId: id(3), challenge: challengeOf(1), rpID: "acme.test", codeId }),
      event(userId, 5, "user.human.passwordless.token.verified", {
        webAuthNTokenId: id(3),
        keyId: authenticator.credentialId,
        publicKey: authenticator.publicKey,
        attestationType: "none",
        aaguid: "00000000-0000-0000-0000-000000000000",
        signCount: 0,
        webAuthNTokenName: "Laptop",
        rpID: "acme.test",
        userVerified: true,
        backedUp: false,
      }),
      event(userId, 6, "user.human.passwordless.initialization.code.check.succeeded", { id: codeId }),
    ]);

    // Replayed: the registration is complete, and the code is used up.
    expect((await verifyPasskeyRegistration(ports, { userId, passkeyId: id(3), publicKeyCredential: credential, passkeyName: "Laptop" }))._unsafeUnwrapErr()).toEqual(NOT_PENDING);
    expect((await registerPasskey(ports, { userId, code: { id: codeId, code } }))._unsafeUnwrapErr()).toEqual(NO_CODE);
  });

  it("refuses an attestation replayed onto a new registration, one from a wrong origin or another site's frame, a credential id over 1023 bytes, and one that came too late, with 3", async () => {
    const { ports, eventsOf, clock } = await kind.open({ config: PASSKEYS });
    const userId = await imported(ports, annWithHash(cheapHash("Old-Password-1")));
    const authenticator = softwareAuthenticator();
    const begin = async () => (await registerPasskey(ports, { userId }, { requester: { userId, orgId: "acme" } }))._unsafeUnwrap();
    const verify = (passkeyId: string, publicKeyCredential: Record<string, unknown>) =>
      verifyPasskeyRegistration(ports, { userId, passkeyId, publicKeyCredential, passkeyName: "Key" });

    const first = await begin();
    const answer = authenticator.create(optionsOf(first), { origin: ORIGIN });
    const second = await begin();
    // The first registration's answer signs the first challenge, not the second.
    expect((await verify(second.passkeyId, answer))._unsafeUnwrapErr()).toEqual(ATTESTATION);
    expect((await verify(second.passkeyId, authenticator.create(optionsOf(second), { origin: "https://evil.test" })))._unsafeUnwrapErr()).toEqual(ATTESTATION);
    expect((await verify(second.passkeyId, authenticator.create(optionsOf(second), { origin: ORIGIN, rpId: "evil.test" })))._unsafeUnwrapErr()).toEqual(ATTESTATION);
    expect((await verify(second.passkeyId, authenticator.create(optionsOf(second), { origin: ORIGIN, userVerified: false })))._unsafeUnwrapErr()).toEqual(ATTESTATION);

    // WebAuthn (registration, step 7.1): a creation in a frame of another site, and a credential
    // id over 1023 bytes, fail the ceremony; 1023 bytes are taken.
    expect((await verify(second.passkeyId, authenticator.create(optionsOf(second), { origin: ORIGIN, crossOrigin: true })))._unsafeUnwrapErr()).toEqual(ATTESTATION);
    // A top origin comes only with such a frame, and crossOrigin is a boolean: either way, not taken.
    for (const clientData of [{ topOrigin: "https://evil.test" }, { crossOrigin: "true" }, { crossOrigin: 1 }]) {
      expect((await verify(second.passkeyId, authenticator.create(optionsOf(second), { origin: ORIGIN, clientData })))._unsafeUnwrapErr()).toEqual(ATTESTATION);
    }
    expect((await verify(second.passkeyId, softwareAuthenticator(2, 1024).create(optionsOf(second), { origin: ORIGIN })))._unsafeUnwrapErr()).toEqual(ATTESTATION);
    const longest = await begin();
    expect((await verify(longest.passkeyId, softwareAuthenticator(3, 1023).create(optionsOf(longest), { origin: ORIGIN }))).isOk()).toBe(true);

    clock.set("2026-03-04T05:11:08Z"); // 301 seconds after the registrations began
    expect((await verify(first.passkeyId, answer))._unsafeUnwrapErr()).toEqual(plainError(3, "USER-pkex", "the passkey registration has expired; register again"));
    // Nothing was stored by any of them.
    expect((await eventsOf(userId, 2)).map((stored) => stored.type)).toEqual([
      "user.human.passwordless.token.added",
      "user.human.passwordless.token.added",
      "user.human.passwordless.token.added",
      "user.human.passwordless.token.verified",
    ]);
  });

  it("refuses a client data that is not plain base64url, whose bytes two decoders could read apart, with 3, storing nothing", async () => {
    // @simplewebauthn reads a character outside base64url as if it were "A"; the crossOrigin check
    // read such a text as no client data at all, so a re-encoded crossOrigin creation got through.
    const { ports, eventsOf } = await kind.open({ config: PASSKEYS });
    const userId = await imported(ports, annWithHash(cheapHash("Old-Password-1")));
    const authenticator = softwareAuthenticator();
    const registration = (await registerPasskey(ports, { userId }, { requester: { userId, orgId: "acme" } }))._unsafeUnwrap();
    const verify = (publicKeyCredential: Record<string, unknown>) =>
      verifyPasskeyRegistration(ports, { userId, passkeyId: registration.passkeyId, publicKeyCredential, passkeyName: "Key" });
    /**
     * The creation with its client data written again, padded until its base64url has an "A" (a
     * "none" attestation signs no client data), that "A" then replaced by `stray` (if any).
     */
    const rewritten = (crossOrigin: boolean, stray = "A"): Record<string, unknown> => {
      const credential = authenticator.create(optionsOf(registration), { origin: ORIGIN, crossOrigin });
      const response = credential["response"] as Record<string, unknown>;
      const clientData = JSON.parse(Buffer.from(response["clientDataJSON"] as string, "base64url").toString("utf8")) as Record<string, unknown>;
      let text = "";
      for (let pad = ""; !text.includes("A"); pad += "0") text = Buffer.from(JSON.stringify({ ...clientData, pad })).toString("base64url");
      const at = text.indexOf("A");
      return { ...credential, response: { ...response, clientDataJSON: `${text.slice(0, at)}${stray}${text.slice(at + 1)}` } };
    };
    for (const crossOrigin of [true, false]) {
      for (const stray of [".", "+", "/", "*"]) expect((await verify(rewritten(crossOrigin, stray)))._unsafeUnwrapErr()).toEqual(ATTESTATION);
    }
    expect((await verify(rewritten(true)))._unsafeUnwrapErr()).toEqual(ATTESTATION);
    expect((await eventsOf(userId, 2)).map((stored) => stored.type)).toEqual(["user.human.passwordless.token.added"]);
    // The same client data in plain base64url is taken.
    expect((await verify(rewritten(false))).isOk()).toBe(true);
  });
});

describe.each(kinds)("one credential, one passkey, on $name", (kind) => {
  it("refuses a credential registered already, to another user or to the same one, with 6, storing nothing", async () => {
    // WebAuthn (registration, "credentialId is not yet registered for any user"): a credential
    // registered twice would let one authenticator sign in as either user.
    const { ports, eventsOf } = await kind.open({ config: PASSKEYS });
    const ann = await imported(ports, annWithHash(cheapHash("Old-Password-1")));
    const bob = await imported(ports, annWithHash(cheapHash("Old-Password-1"), { userName: "bob", email: { email: "bob@acme.test", isEmailVerified: true } }));
    const authenticator = softwareAuthenticator();
    const register = async (userId: string) => {
      const begun = (await registerPasskey(ports, { userId }, { requester: { userId, orgId: "acme" } }))._unsafeUnwrap();
      return verifyPasskeyRegistration(ports, { userId, passkeyId: begun.passkeyId, publicKeyCredential: authenticator.create(optionsOf(begun), { origin: ORIGIN }), passkeyName: "Key" });
    };
    expect((await register(ann)).isOk()).toBe(true);
    const taken = plainError(6, "USER-pk6x", "this passkey is already registered to a user");
    expect((await register(bob))._unsafeUnwrapErr()).toEqual(taken);
    expect((await register(ann))._unsafeUnwrapErr()).toEqual(taken);
    const verified = async (userId: string) => (await eventsOf(userId, 0)).filter((stored) => stored.type === "user.human.passwordless.token.verified").length;
    expect([await verified(ann), await verified(bob)]).toEqual([1, 0]);
  });
});

describe("passkeys: access, configuration and links", () => {
  const [memory] = kinds;
  if (memory === undefined) throw new Error("no memory store");
  const open = (config: HumanUsersConfig = PASSKEYS): Promise<Harness> => memory.open({ config });

  it("checks a packed self attestation's signature over the challenge, and refuses a forged one", async () => {
    const { ports } = await open();
    const userId = await imported(ports, annWithHash(cheapHash("Old-Password-1")));
    const registered = (await registerPasskey(ports, { userId }, { requester: { userId, orgId: "acme" } }))._unsafeUnwrap();
    const signed = softwareAuthenticator().create(optionsOf(registered), { origin: "https://app.acme.test", attestation: "packed" });
    const forged = softwareAuthenticator(2).create({ ...optionsOf(registered), publicKey: { ...optionsOf(registered).publicKey, challenge: challengeOf(9) } }, { origin: "https://app.acme.test", attestation: "packed" });
    const response = signed["response"] as Record<string, string>;
    // The signature of another key over another challenge, under this registration's client data.
    const tampered = { ...forged, response: { ...(forged["response"] as Record<string, string>), clientDataJSON: response["clientDataJSON"] } };

    expect((await verifyPasskeyRegistration(ports, { userId, passkeyId: registered.passkeyId, publicKeyCredential: tampered, passkeyName: "Key" }))._unsafeUnwrapErr()).toEqual(ATTESTATION);
    expect((await verifyPasskeyRegistration(ports, { userId, passkeyId: registered.passkeyId, publicKeyCredential: signed, passkeyName: "Key" }))._unsafeUnwrap()).toEqual({ details: details(4) });
  });

  it("records a wrong link code, and without a code lets only the user itself begin a registration, as ZITADEL", async () => {
    const { ports, eventsOf } = await open();
    const { userId, codeId } = await annWithLink(ports);

    expect((await registerPasskey(ports, { userId, code: { id: codeId, code: "wrongwrongwr" } }))._unsafeUnwrapErr()).toEqual(CODE_WRONG);
    expect((await registerPasskey(ports, { userId, code: { id: "no-such-code", code: "aaaaaaaaaaaa" } }))._unsafeUnwrapErr()).toEqual(NO_CODE);
    expect(await eventsOf(userId, 3)).toEqual([event(userId, 4, "user.human.passwordless.initialization.code.check.failed", { id: codeId })]);
    expect((await registerPasskey(ports, { userId }))._unsafeUnwrapErr()).toEqual(plainError(16, "USER-4uth", "the request is not authenticated"));
    expect((await registerPasskey(ports, { userId }, { requester: { userId: "x", orgId: "globex" } }))._unsafeUnwrapErr()).toEqual(plainError(5, "USER-u5r5", "the user does not exist"));
    // An administrator of the organization, even of the instance, sends a link instead: its own
    // authenticator registered as the user's passkey would let it sign in as the user.
    const denied = plainError(7, "USER-s3lf", "only the user itself may do this without a code; an administrator sends a link instead");
    expect((await registerPasskey(ports, { userId }, { requester: member }))._unsafeUnwrapErr()).toEqual(denied);
    expect((await registerPasskey(ports, { userId }, { requester: instanceAdmin }))._unsafeUnwrapErr()).toEqual(denied);
    expect(await eventsOf(userId, 4)).toEqual([]);
    expect((await registerPasskey(ports, { userId }, { requester: { userId, orgId: "acme" } })).isOk()).toBe(true);
  });

  it("reads ids from the request as ids only, never as members every object has", async () => {
    const { ports } = await open();
    const { userId } = await annWithLink(ports);
    for (const name of ["__proto__", "constructor", "toString"]) {
      expect((await registerPasskey(ports, { userId, code: { id: name, code: "aaaaaaaaaaaa" } }))._unsafeUnwrapErr()).toEqual(NO_CODE);
      const credential = { id: "x", rawId: "x", type: "public-key", response: { clientDataJSON: "e30", attestationObject: "oA" } };
      expect((await verifyPasskeyRegistration(ports, { userId, passkeyId: name, publicKeyCredential: credential, passkeyName: "Key" }))._unsafeUnwrapErr()).toEqual(NOT_PENDING);
    }
  });

  it("names each missing member of a verification as required, in the library's words", async () => {
    const { ports } = await open();
    const { userId } = await annWithLink(ports);
    expect((await verifyPasskeyRegistration(ports, { userId, passkeyId: "pk" }, { requester: member }))._unsafeUnwrapErr()).toEqual(
      invalidBody([
        { field: "publicKeyCredential", description: "is required" },
        { field: "passkeyName", description: "is required" },
      ]),
    );
  });

  it("excludes the credentials the user has already", async () => {
    const { ports } = await open();
    const userId = await imported(ports, annWithHash(cheapHash("Old-Password-1")));
    const authenticator = softwareAuthenticator();
    const first = (await registerPasskey(ports, { userId }, { requester: { userId, orgId: "acme" } }))._unsafeUnwrap();
    await verifyPasskeyRegistration(ports, { userId, passkeyId: first.passkeyId, publicKeyCredential: authenticator.create(optionsOf(first), { origin: ORIGIN }), passkeyName: "Key" });

    const second = (await registerPasskey(ports, { userId, authenticator: 2 }, { requester: { userId, orgId: "acme" } }))._unsafeUnwrap();
    expect(second.publicKeyCredentialCreationOptions).toEqual(expectedOptions(userId, challengeOf(1), [authenticator.credentialId], "cross-platform"));
  });

  it("answers 9 without config.passkeys, and 3 for a domain that is not the relying party", async () => {
    const unconfigured = await open({});
    const userId = await imported(unconfigured.ports, annWithHash(cheapHash("Old-Password-1")));
    expect((await registerPasskey(unconfigured.ports, { userId }, { requester: { userId, orgId: "acme" } }))._unsafeUnwrapErr()).toEqual(
      plainError(9, "USER-pk0c", "passkeys are not configured (config.passkeys names no relying party)"),
    );
    const { ports } = await open();
    const other = await imported(ports, annWithHash(cheapHash("Old-Password-1")));
    expect((await registerPasskey(ports, { userId: other, domain: "evil.test" }, { requester: { userId: other, orgId: "acme" } }))._unsafeUnwrapErr()).toEqual(
      invalidBody([{ field: "domain", description: "must be the configured relying party id (config.passkeys.rpId)" }]),
    );
  });

  it("issues a new link: returned as a code that registerPasskey takes, or mailed with {{.CodeID}} in its template", async () => {
    const { ports, mailer, eventsOf } = await open();
    const userId = await imported(ports, annWithHash(cheapHash("Old-Password-1")));

    expect((await createPasskeyRegistrationLink(ports, { userId, returnCode: {} }))._unsafeUnwrapErr()).toEqual(plainError(16, "USER-4uth", "the request is not authenticated"));
    const returned = (await createPasskeyRegistrationLink(ports, { userId, returnCode: {} }, { requester: member }))._unsafeUnwrap();
    expect(returned).toEqual({ details: details(3), code: { id: id(2), code: "aaaaaaaaaaaa" } });
    expect((await registerPasskey(ports, { userId, code: returned.code }))._unsafeUnwrap().passkeyId).toBe(id(3));

    const template = "https://app.acme.test/passkey?user={{.UserID}}&id={{.CodeID}}&code={{.Code}}";
    expect((await createPasskeyRegistrationLink(ports, { userId, sendLink: { urlTemplate: template } }, { requester: member }))._unsafeUnwrap()).toEqual({ details: details(5) });
    expect(mailer.sent.map((mail) => [mail.kind, mail.to, mail.subject, mail.link])).toEqual([
      ["email.passkey_registration", "ann@acme.test", "Register your passkey", `https://app.acme.test/passkey?user=${userId}&id=${id(4)}&code=cccccccccccc`],
    ]);
    await createPasskeyRegistrationLink(ports, { userId }, { requester: member });
    expect(mailer.sent[1]?.link).toBe(`http://localhost:8080/ui/login/login/passwordless/init?userID=${userId}&orgID=acme&codeID=${id(6)}&code=dddddddddddd`);
    expect((await eventsOf(userId, 2))[0]).toEqual(
      event(userId, 3, "user.human.passwordless.initialization.code.added", { id: id(2), code: storedCode("aaaaaaaaaaaa"), expiry: "3600s", codeReturned: true }),
    );
  });
});
