// registerPasskey's request: the user, optionally the code of a registration link (the proof),
// the kind of authenticator and the relying party.
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import type { FieldViolation } from "../errors/index.js";
import { optional, parsedWith, record, text } from "../validation/fields.js";
import { userIdShape, withUserId } from "./user-id.js";
import { fieldTreeOf } from "./field-tree-of.js";
import { identifier, MAX_TEXT, verificationCode } from "./fields.js";
import { requestParser } from "./request-parser.js";
import { member } from "./structure.js";

export type Attachment = "platform" | "cross-platform" | undefined;

export interface RegisterPasskeyInput {
  readonly code: { readonly id: string; readonly code: string } | undefined;
  readonly attachment: Attachment;
  /** The relying party asked for; undefined (or "") for the configured one. */
  readonly domain: string | undefined;
}

/** The request carries a registration code: the code is the proof, no requester is needed. */
export function hasRegistrationCode(request: Readonly<Record<string, unknown>>): boolean {
  return member(request, "code") != null;
}

export function registerPasskeyShape(request: Readonly<Record<string, unknown>>): FieldViolation[] {
  return userIdShape(request);
}

const ATTACHMENTS: ReadonlyMap<unknown, Attachment> = new Map<unknown, Attachment>([
  ["PASSKEY_AUTHENTICATOR_UNSPECIFIED", undefined],
  [0, undefined],
  ["PASSKEY_AUTHENTICATOR_PLATFORM", "platform"],
  [1, "platform"],
  ["PASSKEY_AUTHENTICATOR_CROSS_PLATFORM", "cross-platform"],
  [2, "cross-platform"],
]);

const authenticator = v.pipe(
  v.unknown(),
  parsedWith((value: unknown): Result<Attachment, string> =>
    ATTACHMENTS.has(value)
      ? ok(ATTACHMENTS.get(value))
      : err("must be one of PASSKEY_AUTHENTICATOR_UNSPECIFIED, PASSKEY_AUTHENTICATOR_PLATFORM, PASSKEY_AUTHENTICATOR_CROSS_PLATFORM (or 0 to 2)"),
  ),
);

const schema = () =>
  v.object({
    code: optional(record({ id: identifier, code: verificationCode })),
    authenticator: optional(authenticator),
    domain: optional(text({ min: 0, max: MAX_TEXT })),
  });

export const registerPasskeyFields = withUserId(fieldTreeOf(schema()));

export const parseRegisterPasskey = requestParser({
  schema,
  crossField: (): FieldViolation[] => [],
  fieldOrder: ["userId", "code", "authenticator", "domain"],
  toDraft: (parsed): RegisterPasskeyInput => ({
    code: parsed.code ?? undefined,
    attachment: parsed.authenticator ?? undefined,
    domain: parsed.domain === "" || parsed.domain == null ? undefined : parsed.domain,
  }),
});
