import { err, ok, type Result } from "neverthrow";
import type { PasskeySettings } from "../../ports/config.js";
import { encodeBase64Url } from "../../shared/base64.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { codeExhausted, codeExpired, codeWrong, invalidRequest, noCodePending, passkeysNotConfigured, userNotFound } from "../errors/user-errors.js";
import type { RegisterPasskeyResponse } from "../responses.js";
import { requestedUserId } from "../schemas/user-id.js";
import { hasRegistrationCode, parseRegisterPasskey, registerPasskeyFields, registerPasskeyShape, type RegisterPasskeyInput } from "../schemas/register-passkey.js";
import { checkCode } from "../secrets/code-check.js";
import { entryOf } from "../users/entry-of.js";
import type { UserState } from "../users/user-state.js";
import { changeResponse } from "./change-response.js";
import { wrongTry, type Command, type Decision } from "./command.js";
import { callPort } from "./port-call.js";

/** How long a begun registration waits for its attestation, unless configured: the seconds a person needs at an authenticator. */
export const DEFAULT_PASSKEY_TIMEOUT_SECONDS = 300;

export function passkeyTimeoutSeconds(settings: PasskeySettings): number {
  const configured = settings.timeoutSeconds;
  return configured !== undefined && Number.isSafeInteger(configured) && configured > 0 ? configured : DEFAULT_PASSKEY_TIMEOUT_SECONDS;
}

/** The registration code's check: nothing to say when it holds, else the answer (a wrong one recorded first). */
function refuseCode(input: RegisterPasskeyInput, user: UserState, now: Date, keys: Parameters<typeof checkCode>[3]): Result<Decision<RegisterPasskeyResponse>, ErrorBody> | undefined {
  const given = input.code;
  if (given === undefined) return undefined;
  switch (checkCode(entryOf(user.passwordlessCodes, given.id), given.code, now, keys)) {
    case "match":
      return undefined;
    case "none":
      return err(noCodePending("passwordless"));
    case "exhausted":
      return err(codeExhausted("passwordless"));
    case "expired":
      return err(codeExpired("passwordless"));
    case "wrong":
      return ok(wrongTry(user.userId, [{ type: "user.human.passwordless.initialization.code.check.failed", payload: { id: given.id } }], codeWrong("passwordless")));
  }
}

/**
 * ZITADEL's `RegisterPasskey` (`POST /v2/users/{userId}/passkeys`): begins a passkey
 * registration and answers the options for `navigator.credentials.create`. The code of a
 * registration link is the proof (no requester needed); without one, only the user itself may
 * begin a registration (as ZITADEL: an administrator sends a link instead, since whoever begins it
 * chooses the authenticator that signs in as the user). The code is redeemed when the
 * registration is verified, so a registration that the person abandons leaves the link usable.
 */
export const registerPasskeyCommand: Command<RegisterPasskeyInput, RegisterPasskeyResponse> = {
  name: "registerPasskey",
  fields: registerPasskeyFields,
  shape: registerPasskeyShape,
  access: (request) => ({ permission: "user.write", proof: hasRegistrationCode(request), self: "only" }),
  target: (request) => ({ userId: requestedUserId(request) }),
  parse: parseRegisterPasskey,
  async decide({ ports, parsed, user, now }) {
    if (user === undefined) return err(userNotFound());
    const settings = ports.config?.passkeys;
    if (settings === undefined) return err(passkeysNotConfigured());
    if (parsed.domain !== undefined && parsed.domain !== settings.rpId) {
      return err(invalidRequest([{ field: "domain", description: "must be the configured relying party id (config.passkeys.rpId)" }]));
    }
    const refused = refuseCode(parsed, user, now, ports.keys);
    if (refused !== undefined) return refused;

    const passkeyId = ports.ids.next();
    const challenge = encodeBase64Url(ports.random.fill(new Uint8Array(32)));
    const registered = Object.values(user.passkeys).flatMap((passkey) => (passkey.credential === undefined ? [] : [passkey.credential.id]));
    const options = await callPort("passkey options", ports.logger, () =>
      ports.passkeys.creationOptions({
        rpId: settings.rpId,
        rpName: settings.rpName,
        userId: user.userId,
        userName: user.username,
        displayName: user.profile.displayName,
        challenge,
        timeoutMs: passkeyTimeoutSeconds(settings) * 1000,
        ...(parsed.attachment !== undefined ? { attachment: parsed.attachment } : {}),
        excludeCredentialIds: registered,
      }),
    );
    if (options.isErr()) return err(options.error);
    const codeId = parsed.code?.id;
    return ok({
      userId: user.userId,
      events: [{ type: "user.human.passwordless.token.added", payload: { webAuthNTokenId: passkeyId, challenge, rpID: settings.rpId, ...(codeId !== undefined ? { codeId } : {}) } }],
      respond: (facts) => ok({ ...changeResponse(facts), passkeyId, publicKeyCredentialCreationOptions: { publicKey: options.value } }),
    });
  },
};
