// setPassword's request (ZITADEL's SetPassword): the new password, checked against
// the organization's policy, and at most one proof.
import * as v from "valibot";
import type { FieldViolation } from "../errors/index.js";
import { flag, optional, record } from "../validation/fields.js";
import { passwordShape } from "./check-password.js";
import { userIdShape, withUserId } from "./user-id.js";
import { fieldTreeOf } from "./field-tree-of.js";
import { neutralRulesContext } from "./rules-context.js";
import { plainPassword, verificationCode } from "./fields.js";
import { requestParser } from "./request-parser.js";
import { atMostOneOf, member, requiredObjects } from "./structure.js";
import type { RulesContext } from "./rules-context.js";

/** What proves the caller may set the password, when a requester with `user.write` does not. */
export type PasswordProof = { readonly kind: "current"; readonly password: string } | { readonly kind: "code"; readonly code: string };

export interface SetPasswordInput {
  readonly password: string;
  readonly changeRequired: boolean;
  readonly proof: PasswordProof | undefined;
}

export function hasPasswordProof(request: Readonly<Record<string, unknown>>): boolean {
  return member(request, "currentPassword") != null || member(request, "verificationCode") != null;
}

export function setPasswordShape(request: Readonly<Record<string, unknown>>): FieldViolation[] {
  const violations = [...userIdShape(request), ...requiredObjects(request, ["newPassword"])];
  violations.push(...atMostOneOf(request, ["verificationCode"], ["currentPassword", "verificationCode"]));
  if (member(request, "currentPassword") != null) violations.push(...passwordShape(request, "currentPassword"));
  return violations;
}

function schema(context: RulesContext) {
  return v.object({
    newPassword: record({ password: plainPassword(context), changeRequired: optional(flag) }),
    currentPassword: optional(v.string()),
    verificationCode: optional(verificationCode),
  });
}

export const setPasswordFields = withUserId(fieldTreeOf(schema(neutralRulesContext)));

export const parseSetPassword = requestParser({
  schema,
  crossField: (): FieldViolation[] => [],
  fieldOrder: ["userId", "newPassword", "currentPassword", "verificationCode"],
  toDraft: (parsed): SetPasswordInput => {
    const current = parsed.currentPassword ?? undefined;
    const code = parsed.verificationCode ?? undefined;
    const proof: PasswordProof | undefined =
      current !== undefined ? { kind: "current", password: current } : code !== undefined ? { kind: "code", code } : undefined;
    return { password: parsed.newPassword.password, changeRequired: parsed.newPassword.changeRequired === true, proof };
  },
});
