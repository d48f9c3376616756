// createPasskeyRegistrationLink's request: the link mailed (the default) or the code returned.
import * as v from "valibot";
import type { FieldViolation } from "../errors/index.js";
import { parseUrlTemplate, PASSKEY_LINK_PLACEHOLDERS } from "../rules/url-template.js";
import { emptyMessage, optional, parsedWith, record, text } from "../validation/fields.js";
import { MAX_TEXT } from "./fields.js";
import type { CodeDeliveryChoice } from "./password-reset.js";
import { requestParser } from "./request-parser.js";
import { withUserId } from "./user-id.js";
import { fieldTreeOf } from "./field-tree-of.js";

export interface PasskeyLinkInput {
  readonly delivery: CodeDeliveryChoice;
}

const passkeyUrlTemplate = v.pipe(
  text({ min: 1, max: MAX_TEXT }),
  parsedWith((template: string) => parseUrlTemplate(template, PASSKEY_LINK_PLACEHOLDERS)),
);

const schema = () => v.object({ sendLink: optional(record({ urlTemplate: optional(passkeyUrlTemplate) })), returnCode: optional(emptyMessage) });

export const passkeyLinkFields = withUserId(fieldTreeOf(schema()));

export const parsePasskeyLink = requestParser({
  schema,
  crossField: (): FieldViolation[] => [],
  fieldOrder: ["userId", "sendLink", "returnCode"],
  toDraft: (parsed): PasskeyLinkInput => ({
    delivery: parsed.returnCode != null ? { kind: "return" } : { kind: "mail", urlTemplate: parsed.sendLink?.urlTemplate ?? undefined },
  }),
});
