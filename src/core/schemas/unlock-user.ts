import { ok, type Result } from "neverthrow";
import type { FieldViolation } from "../errors/index.js";
import { userIdShape, withUserId } from "./user-id.js";

export const unlockUserFields = withUserId();

/** unlockUser names the user and nothing else. */
export function unlockUserShape(request: Readonly<Record<string, unknown>>): FieldViolation[] {
  return userIdShape(request);
}

export function parseUnlockUser(): Result<Record<string, never>, FieldViolation[]> {
  return ok({});
}
