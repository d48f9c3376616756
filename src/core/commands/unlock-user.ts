import { err, ok } from "neverthrow";
import { userNotFound, userNotLocked } from "../errors/user-errors.js";
import type { UnlockUserResponse } from "../responses.js";
import { requestedUserId } from "../schemas/user-id.js";
import { parseUnlockUser, unlockUserFields, unlockUserShape } from "../schemas/unlock-user.js";
import { changeResponse } from "./change-response.js";
import type { Command } from "./command.js";

/** ZITADEL's `UnlockUser` (`POST /v2/users/{userId}/unlock`): a locked user may log in again, its failures forgotten. */
export const unlockUserCommand: Command<Record<string, never>, UnlockUserResponse> = {
  name: "unlockUser",
  fields: unlockUserFields,
  shape: unlockUserShape,
  access: () => ({ permission: "user.write", proof: false, self: "administrators" }),
  target: (request) => ({ userId: requestedUserId(request) }),
  parse: parseUnlockUser,
  decide({ user }) {
    if (user === undefined) return Promise.resolve(err(userNotFound()));
    if (user.lifecycle !== "USER_STATE_LOCKED") return Promise.resolve(err(userNotLocked()));
    return Promise.resolve(
      ok({ userId: user.userId, events: [{ type: "user.unlocked", payload: {} }], respond: (facts) => ok(changeResponse(facts)) }),
    );
  },
};
