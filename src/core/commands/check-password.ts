import { err, ok } from "neverthrow";
import { userLocked } from "../errors/user-errors.js";
import type { UserEventDraft } from "../events/user-events.js";
import type { CheckPasswordResponse } from "../responses.js";
import { checkPasswordFields, checkPasswordShape, checkPasswordTarget, parseCheckPassword, type CheckPasswordInput } from "../schemas/check-password.js";
import { checkAsLogin, dummyVerification, failedCheckEvents, hashOnce } from "../users/password-check.js";
import { changeResponse } from "./change-response.js";
import { wrongTry, type Command } from "./command.js";
import { portFailure } from "./port-call.js";

/**
 * A user's password checked, as ZITADEL checks it in a session: the answer, the
 * check recorded, the lockout counted, and an imported or outdated hash upgraded to the configured
 * hasher on the first good login (hashed from the password just verified, not verified again).
 */
export const checkPasswordCommand: Command<CheckPasswordInput, CheckPasswordResponse> = {
  name: "checkPassword",
  fields: checkPasswordFields,
  shape: checkPasswordShape,
  // The password is the proof: login pages call this for people who are not logged in.
  access: () => ({ permission: "user.write", proof: true }),
  target: (request) => checkPasswordTarget(request),
  parse: (request) => parseCheckPassword(request),
  async unknownUser(ports, request) {
    return dummyVerification(ports, String(request["password"]));
  },
  async decide({ ports, parsed, user, organization }) {
    if (user === undefined) return err(portFailure(new Error("no user to check"), "checkPassword", ports.logger));
    // Locked: no verification, so a locked account is no oracle for its password.
    if (user.lifecycle === "USER_STATE_LOCKED") return err(userLocked());
    const stored = user.password;
    if (stored === undefined) return err(await dummyVerification(ports, parsed.password));
    const checked = await checkAsLogin(ports, parsed, stored.encodedHash, parsed.password);
    if (checked.isErr()) return err(checked.error);
    const verdict = checked.value;
    const { userId } = user;
    if (!verdict.valid) return ok(wrongTry(userId, failedCheckEvents(user, organization), verdict.answer));

    const events: UserEventDraft[] = [{ type: "user.human.password.check.succeeded", payload: {} }];
    if (verdict.needsRehash) {
      const rehashed = await hashOnce(ports, parsed, parsed.password);
      // A hasher that fails must not fail a good login: the old hash stays, and is upgraded next time.
      if (rehashed.isOk()) events.push({ type: "user.human.password.hash.updated", payload: { encodedHash: rehashed.value } });
    }
    // Left out when false, as every false on the wire is.
    const required = stored.changeRequired ? ({ passwordChangeRequired: true } as const) : {};
    return ok({ userId, events, respond: (facts) => ok({ userId, ...required, ...changeResponse(facts) }) });
  },
};
