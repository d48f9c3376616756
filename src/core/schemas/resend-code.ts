import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import type { FieldViolation } from "../errors/index.js";
import { isEmailAddress } from "../rules/email-address.js";
import { parseUrlTemplate, type UrlTemplate } from "../rules/url-template.js";
import { emptyMessage, optional, parsedWith, record, text } from "../validation/fields.js";
import { violation } from "../validation/violations.js";
import { MAX_TEXT } from "./fields.js";
import type { RulesContext } from "./rules-context.js";
import { schemaParser } from "./schema-parser.js";
import { withUserId } from "./user-id.js";

/** Where a resent code goes: into a message (with the email link's template, if given), or back in the response. */
export type ResendDelivery = { readonly kind: "send"; readonly urlTemplate?: UrlTemplate } | { readonly kind: "return" };

const urlTemplate = v.pipe(text({ min: 1, max: MAX_TEXT }), parsedWith(parseUrlTemplate));

const emailResendSchema = record({
  sendCode: optional(record({ urlTemplate: optional(urlTemplate) })),
  returnCode: optional(emptyMessage),
});

const phoneResendSchema = record({ sendCode: optional(emptyMessage), returnCode: optional(emptyMessage) });

const ORDER = ["userId", "sendCode", "returnCode"];
const emailParser = schemaParser(() => emailResendSchema, ORDER);
const phoneParser = schemaParser(() => phoneResendSchema, ORDER);
export const resendEmailCodeFields = withUserId(emailParser.fields);
export const resendPhoneCodeFields = withUserId(phoneParser.fields);

/** `sendCode` and `returnCode` are a protobuf oneof: at most one. */
export function resendCodeShape(request: Readonly<Record<string, unknown>>): FieldViolation[] {
  const both = request["sendCode"] != null && request["returnCode"] != null;
  return both ? [violation(["returnCode"], "cannot be set together with sendCode")] : [];
}

/** `resendEmailCode`: returned when `returnCode` is set, else sent (with `sendCode.urlTemplate`, if any). */
export function parseResendEmailCodeRequest(request: unknown, context: RulesContext): Result<ResendDelivery, FieldViolation[]> {
  return emailParser.parse(request, context).map((parsed): ResendDelivery => {
    if (parsed.returnCode != null) return { kind: "return" };
    const template = parsed.sendCode?.urlTemplate ?? undefined;
    return template === undefined ? { kind: "send" } : { kind: "send", urlTemplate: template };
  });
}

/** `resendPhoneCode`: returned when `returnCode` is set, else sent by SMS. */
export function parseResendPhoneCodeRequest(request: unknown, context: RulesContext): Result<ResendDelivery, FieldViolation[]> {
  return phoneParser.parse(request, context).map((parsed): ResendDelivery => (parsed.returnCode != null ? { kind: "return" } : { kind: "send" }));
}

/** An address, or "" (as protobuf JSON's default) for none; trimmed like creation's addresses. */
const optionalEmail = v.pipe(
  text({ min: 0, max: MAX_TEXT }),
  v.transform((address: string) => address.trim()),
  parsedWith((address: string): Result<string | undefined, string> =>
    address === "" ? ok(undefined) : isEmailAddress(address) ? ok(address) : err("is not a valid email address"),
  ),
);

const initializationParser = schemaParser(() => record({ email: optional(optionalEmail) }), ["userId", "email"]);
export const resendInitializationFields = withUserId(initializationParser.fields);

/** `resendInitialization`: the new address, if the request changes it. */
export function parseResendInitializationRequest(request: unknown, context: RulesContext): Result<{ readonly email: string | undefined }, FieldViolation[]> {
  return initializationParser.parse(request, context).map((parsed) => ({ email: parsed.email ?? undefined }));
}
