import { err, ok, type Result } from "neverthrow";
import type { OutboxNotification } from "../../ports/outbox.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { notInitialized, userNotFound } from "../errors/user-errors.js";
import type { CodeAdded, UserEventDraft } from "../events/user-events.js";
import type { ResendCodeResponse } from "../responses.js";
import type { RulesContext } from "../schemas/rules-context.js";
import { resendCodeShape, type ResendDelivery } from "../schemas/resend-code.js";
import { requestedUserId, userIdShape } from "../schemas/user-id.js";
import type { FieldViolation } from "../../shared/error-body.js";
import type { UserState } from "../users/user-state.js";
import type { FieldTree } from "../wire/field-tree.js";
import { pruneEmpty } from "../wire/prune.js";
import { changeResponse } from "./change-response.js";
import type { Command, DecideInput, Decision, RequestObject } from "./command.js";
import { codeAdded, issueCode, type IssuedCode } from "./user-creation.js";

/** One channel whose code is sent again: when it may be, its event, and its message. */
export interface ResendChannel {
  readonly name: string;
  readonly kind: "email" | "phone";
  /** Why no new code is issued (already verified, no phone, no code was ever sent), or undefined. */
  refusal(user: UserState): ErrorBody | undefined;
  added(code: CodeAdded): UserEventDraft;
  /** The message carrying the code, undefined when none is sent (no SMS sender); Err when its link cannot be made. */
  message(input: DecideInput<ResendDelivery>, user: UserState, code: IssuedCode): Result<OutboxNotification | undefined, ErrorBody>;
  readonly fields: FieldTree;
  parse(request: RequestObject, rules: RulesContext): Result<ResendDelivery, FieldViolation[]>;
}

/**
 * A command that issues a new code for a channel (the old one stops working: only the newest
 * pending code is kept) and sends it, or returns it when `returnCode` asks. Needs `user.write`.
 */
export function resendCommand(spec: ResendChannel): Command<ResendDelivery, ResendCodeResponse> {
  return {
    name: spec.name,
    fields: spec.fields,
    shape: (request) => [...userIdShape(request), ...resendCodeShape(request)],
    access: () => ({ permission: "user.write", proof: false }),
    target: (request) => ({ userId: requestedUserId(request) }),
    parse: spec.parse,
    decide(input): Promise<Result<Decision<ResendCodeResponse>, ErrorBody>> {
      const { user, parsed, ports, now } = input;
      if (user === undefined) return Promise.resolve(err(userNotFound()));
      // As ZITADEL: nothing is sent again to a user waiting for its initialization (resendInitialization is its way).
      if (user.lifecycle === "USER_STATE_INITIAL") return Promise.resolve(err(notInitialized()));
      const refusal = spec.refusal(user);
      if (refusal !== undefined) return Promise.resolve(err(refusal));
      const code = issueCode(ports, spec.kind, now);
      const returned = parsed.kind === "return";
      const message = returned ? ok(undefined) : spec.message(input, user, code);
      if (message.isErr()) return Promise.resolve(err(message.error));
      return Promise.resolve(
        ok({
          userId: user.userId,
          events: [spec.added(codeAdded(code, returned))],
          notifications: message.value === undefined ? [] : [message.value],
          respond: (facts) => ok(pruneEmpty<ResendCodeResponse>({ ...changeResponse(facts), verificationCode: returned ? code.plain : undefined })),
        }),
      );
    },
  };
}
