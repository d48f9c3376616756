// checkPassword's request: the user by id or by login name, and the password. Everything is
// checked before the user is looked up, so an unknown user and a known one answer a bad request
// alike.
import { ok, type Result } from "neverthrow";
import type { FieldViolation } from "../errors/index.js";
import { longerThanUtf8Bytes } from "../../shared/bytes.js";
import { MAX_PASSWORD_BYTES } from "../users/password-check.js";
import { violation } from "../validation/violations.js";
import { idShape, leafFields } from "./id-member.js";
import { atMostOneOf, member } from "./structure.js";

export interface CheckPasswordInput {
  readonly password: string;
}

/** A password to check: a string of 1 to 1024 UTF-8 bytes (longer ones no hash could match, and are never hashed). */
export function passwordShape(request: Readonly<Record<string, unknown>>, name: string): FieldViolation[] {
  const value = request[name];
  if (value === undefined || value === null) return [violation([name], "is required")];
  if (typeof value !== "string") return [violation([name], "must be a string")];
  if (value === "") return [violation([name], "must not be empty")];
  if (longerThanUtf8Bytes(value, MAX_PASSWORD_BYTES)) {
    return [violation([name], `must be at most ${MAX_PASSWORD_BYTES} bytes long`)];
  }
  return [];
}

/** Everything checkPassword reads: three strings. */
export const checkPasswordFields = leafFields("userId", "loginName", "password");

export function checkPasswordShape(request: Readonly<Record<string, unknown>>): FieldViolation[] {
  const named = ["userId", "loginName"].filter((name) => member(request, name) != null);
  const who =
    named.length === 0
      ? [violation(["userId"], "one of userId, loginName is required")]
      : named.length > 1
        ? atMostOneOf(request, ["userId"], ["userId", "loginName"])
        : idShape(request, named[0] ?? "userId");
  return [...who, ...passwordShape(request, "password")];
}

/** The user the request names: by login name when it has one, else by id. */
export function checkPasswordTarget(request: Readonly<Record<string, unknown>>): { readonly userId: string } | { readonly loginName: string } {
  const loginName = request["loginName"];
  return typeof loginName === "string" ? { loginName } : { userId: String(request["userId"]) };
}

export function parseCheckPassword(request: Readonly<Record<string, unknown>>): Result<CheckPasswordInput, FieldViolation[]> {
  // The shape has checked it all.
  return ok({ password: String(request["password"]) });
}
