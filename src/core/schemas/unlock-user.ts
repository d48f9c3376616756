import { ok, type Result } from "neverthrow";
import type { FieldViolation } from "../errors/index.js";
import { idShape, leafFields } from "./existing-user.js";

export const unlockUserFields = leafFields("userId");

/** unlockUser names the user and nothing else. */
export function unlockUserShape(request: Readonly<Record<string, unknown>>): FieldViolation[] {
  return idShape(request, "userId");
}

export function parseUnlockUser(): Result<Record<string, never>, FieldViolation[]> {
  return ok({});
}
