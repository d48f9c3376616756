import { err, ok, type Result } from "neverthrow";
import type { ErrorBody } from "../../shared/error-body.js";
import { alreadyInitialized, codeExhausted, codeExpired, codeWrong, userNotFound } from "../errors/user-errors.js";
import type { UserEventDraft } from "../events/user-events.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import type { ChangeResponse } from "../responses.js";
import { requestedUserId, userIdShape } from "../schemas/user-id.js";
import { parseVerifyInitCodeRequest, verifyInitCodeFields, type VerifyInitCodeParsed } from "../schemas/verify-code.js";
import { checkCode } from "../secrets/code-check.js";
import { changeResponse } from "./change-response.js";
import { wrongTry, type Command, type Decision } from "./command.js";
import { callPort } from "./port-call.js";

// A lost race decides again, but the new password is hashed once per call, not once per try.
const hashes = new WeakMap<VerifyInitCodeParsed, Promise<Result<string, ErrorBody>>>();

function hashOnce(ports: ResolvedPorts, parsed: VerifyInitCodeParsed, password: string): Promise<Result<string, ErrorBody>> {
  let hashed = hashes.get(parsed);
  if (hashed === undefined) {
    hashed = callPort("password hasher", ports.logger, () => ports.passwords.hash(password));
    hashes.set(parsed, hashed);
  }
  return hashed;
}

/**
 * The initialization ZITADEL does in its login pages, as a function (and the
 * library's own route `POST /human-users/v1/users/{userId}/initialization/verify`): redeems the
 * code of `importHumanUser`'s initialization mail. The code is the proof: no requester is needed.
 * Appends `user.human.initialization.check.succeeded`, `user.human.email.verified` when the email
 * was unverified (the mail reached it), and `user.human.password.changed` when a password is given
 * (checked against the organization's policy, then hashed only once the code matched). The user
 * goes from initial to active. A wrong code is recorded and answered 3, as for the other codes.
 */
export const verifyInitCodeCommand: Command<VerifyInitCodeParsed, ChangeResponse> = {
  name: "verifyInitCode",
  fields: verifyInitCodeFields,
  shape: userIdShape,
  access: () => ({ permission: "user.write", proof: true }),
  target: (request) => ({ userId: requestedUserId(request) }),
  parse: parseVerifyInitCodeRequest,
  async decide({ user, parsed, now, ports }): Promise<Result<Decision<ChangeResponse>, ErrorBody>> {
    if (user === undefined) return err(userNotFound());
    if (user.initCode === undefined) return err(alreadyInitialized());
    const userId = user.userId;
    switch (checkCode(user.initCode, parsed.verificationCode, now, ports.keys)) {
      case "none":
        return err(alreadyInitialized());
      case "exhausted":
        return err(codeExhausted("init"));
      case "expired":
        return err(codeExpired("init"));
      case "wrong":
        return ok(wrongTry(userId, [{ type: "user.human.initialization.check.failed", payload: {} }], codeWrong("init")));
      case "match":
        break;
    }
    const events: UserEventDraft[] = [{ type: "user.human.initialization.check.succeeded", payload: {} }];
    if (!user.email.verified) events.push({ type: "user.human.email.verified", payload: {} });
    const password = parsed.password ?? undefined;
    if (password !== undefined) {
      const encodedHash = await hashOnce(ports, parsed, password);
      if (encodedHash.isErr()) return err(encodedHash.error);
      events.push({ type: "user.human.password.changed", payload: { encodedHash: encodedHash.value, changeRequired: false } });
    }
    return ok({ userId, events, respond: (facts) => ok(changeResponse(facts)) });
  },
};
