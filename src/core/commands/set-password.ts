import { err, ok, type Result } from "neverthrow";
import type { ErrorBody } from "../../shared/error-body.js";
import { codeExhausted, codeWrong, noCodePending, notInitialized, passwordNotChanged, resetCodeExpired, userLocked, userNotFound } from "../errors/user-errors.js";
import type { SetPasswordResponse } from "../responses.js";
import { NO_COMPLEXITY_POLICY } from "../rules/password-policy.js";
import type { RulesContext } from "../schemas/rules-context.js";
import { requestedUserId } from "../schemas/user-id.js";
import { hasPasswordProof, parseSetPassword, setPasswordFields, setPasswordShape, type SetPasswordInput } from "../schemas/set-password.js";
import { member } from "../schemas/structure.js";
import { checkCode } from "../secrets/code-check.js";
import { checkAsLogin, dummyVerification, failedCheckEvents, hashOnce } from "../users/password-check.js";
import type { UserState } from "../users/user-state.js";
import { wrongTry, type Command, type DecideInput, type Decision, type RequestObject } from "./command.js";
import { changeResponse } from "./change-response.js";
import { fieldRulesRefusal, parseWithDefaultRules } from "./runner.js";

type Refusal = Decision<SetPasswordResponse>;

// The same rules with no complexity rule, one per rules object (its schemas are built once).
const withoutComplexity = new WeakMap<RulesContext, RulesContext>();

/**
 * A new password proven by the current one is checked against the organization's policy only once
 * the current password proved right (see organizationPolicyRefusal): an unknown user has no
 * organization, so any policy judged first would tell real users from unknown ones, by the
 * answer or by the work done.
 */
function parseRules(request: RequestObject, rules: RulesContext): RulesContext {
  if (member(request, "currentPassword") == null) return rules;
  let lenient = withoutComplexity.get(rules);
  if (lenient === undefined) withoutComplexity.set(rules, (lenient = { ...rules, passwordPolicy: NO_COMPLEXITY_POLICY }));
  return lenient;
}

/** What the field rules answer the new password under the organization's policy, once the current password proved right. */
function organizationPolicyRefusal(input: DecideInput<SetPasswordInput>): ErrorBody | undefined {
  return fieldRulesRefusal(input.ports, parseSetPassword, input.request, input.organization);
}

/** Why the proof does not hold: a refusal to answer at once, or one recorded first (a wrong try); undefined when it holds. */
async function refuseProof(input: DecideInput<SetPasswordInput>, user: UserState): Promise<Result<Refusal, ErrorBody> | undefined> {
  const { ports, parsed, organization, now } = input;
  const proof = parsed.proof;
  if (proof === undefined) return undefined;
  if (proof.kind === "current") {
    // The current password is checked as checkPassword checks it: counted, so that it is no way around the lockout.
    if (user.lifecycle === "USER_STATE_LOCKED") return err(userLocked());
    const stored = user.password;
    if (stored === undefined) return err(await dummyVerification(ports, proof.password));
    const checked = await checkAsLogin(ports, parsed, stored.encodedHash, proof.password);
    if (checked.isErr()) return err(checked.error);
    const verdict = checked.value;
    if (!verdict.valid) return ok(wrongTry(user.userId, failedCheckEvents(user, organization), verdict.answer));
    // As ZITADEL: a change proven by the current password must change it.
    if (parsed.password === proof.password) return err(passwordNotChanged());
    const weak = organizationPolicyRefusal(input);
    return weak === undefined ? undefined : err(weak);
  }
  switch (checkCode(user.passwordResetCode, proof.code, now, ports.keys)) {
    case "match":
      return undefined;
    case "none":
      return err(noCodePending("passwordReset"));
    case "exhausted":
      return err(codeExhausted("passwordReset"));
    case "expired":
      return err(resetCodeExpired());
    case "wrong":
      return ok(wrongTry(user.userId, [{ type: "user.human.password.code.check.failed", payload: {} }], codeWrong("passwordReset")));
  }
}

/**
 * ZITADEL's `SetPassword` (`POST /v2/users/{userId}/password`): a new password,
 * checked against the organization's policy, proven by the current password or a reset code (no
 * requester needed), or set by a requester allowed to write the user. It asks for a change at the
 * next login only when `newPassword.changeRequired` says so.
 */
export const setPasswordCommand: Command<SetPasswordInput, SetPasswordResponse> = {
  name: "setPassword",
  fields: setPasswordFields,
  shape: setPasswordShape,
  access: (request) => ({ permission: "user.write", proof: hasPasswordProof(request) }),
  target: (request) => ({ userId: requestedUserId(request) }),
  parse: (request, rules) => parseSetPassword(request, parseRules(request, rules)),
  /**
   * Proven by a current password, an unknown user is answered as a user would be: what no new
   * password may be (empty, too long) at once, as the field rules answer every user (see
   * parseRules), else a wrong password after as much work, as checkPassword answers it. A fast 5
   * beside a slow 3 told anyone which users exist.
   */
  async unknownUser(ports, request) {
    const current = member(request, "currentPassword");
    if (typeof current !== "string") return userNotFound();
    const refused = parseWithDefaultRules(ports, setPasswordCommand, request);
    if (refused !== undefined) return refused;
    return dummyVerification(ports, current);
  },
  async decide(input) {
    const { ports, parsed, user } = input;
    if (user === undefined) return err(userNotFound());
    // As ZITADEL's SetPassword: a user waiting for its initialization sets its first password with the initialization code.
    if (user.lifecycle === "USER_STATE_INITIAL") return err(notInitialized());
    const refused = await refuseProof(input, user);
    if (refused !== undefined) return refused;
    const encodedHash = await hashOnce(ports, parsed, parsed.password);
    if (encodedHash.isErr()) return err(encodedHash.error);
    return ok({
      userId: user.userId,
      events: [{ type: "user.human.password.changed", payload: { encodedHash: encodedHash.value, changeRequired: parsed.changeRequired } }],
      respond: (facts) => ok(changeResponse(facts)),
    });
  },
};
