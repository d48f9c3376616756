// passwordReset's request (ZITADEL's PasswordReset): the code mailed (the default,
// with an optional link template) or returned to the caller.
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import type { FieldViolation } from "../errors/index.js";
import { parseUrlTemplate, type UrlTemplate } from "../rules/url-template.js";
import { emptyMessage, optional, parsedWith, record, text } from "../validation/fields.js";
import { userIdShape, withUserId } from "./user-id.js";
import { fieldTreeOf } from "./field-tree-of.js";
import { MAX_TEXT } from "./fields.js";
import { requestParser } from "./request-parser.js";
import { atMostOneOf } from "./structure.js";

/** How a new code reaches the user: mailed with a link (from the request's template, or the configured one), or returned. */
export type CodeDeliveryChoice = { readonly kind: "mail"; readonly urlTemplate: UrlTemplate | undefined } | { readonly kind: "return" };

export interface PasswordResetInput {
  readonly delivery: CodeDeliveryChoice;
}

/** `sendLink` and `returnCode` exclude each other (a protobuf oneof). */
export function deliveryShape(request: Readonly<Record<string, unknown>>): FieldViolation[] {
  return [...userIdShape(request), ...atMostOneOf(request, ["sendLink"], ["sendLink", "returnCode"])];
}

export const urlTemplate = v.pipe(text({ min: 1, max: MAX_TEXT }), parsedWith(parseUrlTemplate));

const EMAIL_TYPES: readonly unknown[] = ["NOTIFICATION_TYPE_Unspecified", "NOTIFICATION_TYPE_Email", 0, 1];

/** Only mail is sent: ZITADEL's SMS reset has no counterpart here. */
const notificationType = v.pipe(
  v.unknown(),
  parsedWith((value: unknown): Result<unknown, string> =>
    EMAIL_TYPES.includes(value) ? ok(value) : err("must be NOTIFICATION_TYPE_Email (SMS is not supported)"),
  ),
);

const schema = () =>
  v.object({
    sendLink: optional(record({ notificationType: optional(notificationType), urlTemplate: optional(urlTemplate) })),
    returnCode: optional(emptyMessage),
  });

export const passwordResetFields = withUserId(fieldTreeOf(schema()));

export const parsePasswordReset = requestParser({
  schema,
  crossField: (): FieldViolation[] => [],
  fieldOrder: ["userId", "sendLink", "returnCode"],
  toDraft: (parsed): PasswordResetInput => ({
    delivery: parsed.returnCode != null ? { kind: "return" } : { kind: "mail", urlTemplate: parsed.sendLink?.urlTemplate ?? undefined },
  }),
});
