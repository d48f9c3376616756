import { err, ok, type Result } from "neverthrow";
import type { ErrorBody } from "../../shared/error-body.js";
import { codeExhausted, codeExpired, codeWrong, noCodePending, notInitialized, userNotFound, type CodeChannel } from "../errors/user-errors.js";
import type { UserEventDraft } from "../events/user-events.js";
import type { ChangeResponse } from "../responses.js";
import { parseVerifyCodeRequest, verifyCodeFields } from "../schemas/verify-code.js";
import { requestedUserId, userIdShape } from "../schemas/user-id.js";
import { checkCode } from "../secrets/code-check.js";
import type { PendingCode, UserState } from "../users/user-state.js";
import { changeResponse } from "./change-response.js";
import { wrongTry, type Command, type Decision } from "./command.js";

/** One channel whose code a person redeems: where its pending code is, and the events its check writes. */
export interface VerificationChannel {
  readonly name: string;
  readonly channel: Exclude<CodeChannel, "init">;
  /** Why no code can be checked at all (already verified, no phone), before the code is looked at. */
  refusal(user: UserState): ErrorBody | undefined;
  pending(user: UserState): PendingCode | undefined;
  readonly failed: UserEventDraft;
  readonly verified: UserEventDraft;
}

/**
 * A command that redeems a channel's code. The code is the proof: no requester is needed, and one
 * who is given needs no permission. A wrong code is recorded (its event appended) and answered 3;
 * after five, the code is dead (9) until a new one is sent. Two calls racing with the right code
 * append at the same expected sequence: one wins, the other decides again and finds the channel
 * verified (9), so the verified event is never written twice.
 */
export function verificationCommand(spec: VerificationChannel): Command<{ readonly verificationCode: string }, ChangeResponse> {
  return {
    name: spec.name,
    fields: verifyCodeFields,
    shape: userIdShape,
    access: () => ({ permission: "user.write", proof: true }),
    target: (request) => ({ userId: requestedUserId(request) }),
    parse: parseVerifyCodeRequest,
    decide({ user, parsed, now, ports }): Promise<Result<Decision<ChangeResponse>, ErrorBody>> {
      // The runner found the user before deciding; undefined only for a command that creates one.
      if (user === undefined) return Promise.resolve(err(userNotFound()));
      // As ZITADEL: a user waiting for its initialization verifies its email with that code, and its phone after it.
      if (user.lifecycle === "USER_STATE_INITIAL") return Promise.resolve(err(notInitialized()));
      const refusal = spec.refusal(user);
      if (refusal !== undefined) return Promise.resolve(err(refusal));
      const userId = user.userId;
      switch (checkCode(spec.pending(user), parsed.verificationCode, now, ports.keys)) {
        case "none":
          return Promise.resolve(err(noCodePending(spec.channel)));
        case "exhausted":
          return Promise.resolve(err(codeExhausted(spec.channel)));
        case "expired":
          return Promise.resolve(err(codeExpired(spec.channel)));
        case "wrong":
          return Promise.resolve(ok(wrongTry(userId, [spec.failed], codeWrong(spec.channel))));
        case "match":
          return Promise.resolve(ok({ userId, events: [spec.verified], respond: (facts) => ok(changeResponse(facts)) }));
      }
    },
  };
}
