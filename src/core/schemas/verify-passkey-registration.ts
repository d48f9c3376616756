// verifyPasskeyRegistration's request: the user, the passkey `registerPasskey` began, the
// browser's credential and a name for the passkey.
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import type { FieldViolation } from "../errors/index.js";
import type { JsonObject } from "../../shared/json.js";
import { parsedWith, record, text } from "../validation/fields.js";
import { idShape, leafFields } from "./id-member.js";
import { userIdShape } from "./user-id.js";
import { mergeFieldTrees, type FieldTree } from "../wire/field-tree.js";
import { MAX_TEXT } from "./fields.js";
import { requestParser } from "./request-parser.js";

export interface VerifyPasskeyInput {
  readonly passkeyId: string;
  readonly credential: JsonObject;
  readonly name: string;
}

/** What WebAuthn's verification reads of the browser's `PublicKeyCredential` JSON (`RegistrationResponseJSON`). */
const credentialFields: FieldTree = {
  members: new Map<string, FieldTree>([
    ["id", {}],
    ["rawId", {}],
    ["type", {}],
    ["authenticatorAttachment", {}],
    ["response", { members: new Map<string, FieldTree>([["clientDataJSON", {}], ["attestationObject", {}], ["transports", { items: {} }]]) }],
    ["clientExtensionResults", { members: new Map<string, FieldTree>([["credProps", { members: new Map([["rk", {}]]) }]]) }],
  ]),
};

export const verifyPasskeyFields: FieldTree = mergeFieldTrees(leafFields("userId", "passkeyId", "passkeyName"), {
  members: new Map([["publicKeyCredential", credentialFields]]),
});

export function verifyPasskeyShape(request: Readonly<Record<string, unknown>>): FieldViolation[] {
  return [...userIdShape(request), ...idShape(request, "passkeyId")];
}

/** Kept whole: its members are the attestation's business, which the verification reads and checks. */
const credential = v.pipe(
  v.unknown(),
  parsedWith((value: unknown): Result<JsonObject, string> => {
    if (value === undefined || value === null) return err("is required");
    return typeof value === "object" && !Array.isArray(value) ? ok(value as JsonObject) : err("must be an object");
  }),
);

export const parseVerifyPasskey = requestParser({
  schema: () =>
    record({
      passkeyId: text({ min: 1, max: MAX_TEXT }),
      publicKeyCredential: credential,
      passkeyName: v.pipe(text({ min: 1, max: MAX_TEXT, nonBlank: true }), v.transform((name: string) => name.trim())),
    }),
  crossField: (): FieldViolation[] => [],
  fieldOrder: ["userId", "passkeyId", "publicKeyCredential", "passkeyName"],
  toDraft: (parsed): VerifyPasskeyInput => ({ passkeyId: parsed.passkeyId, credential: parsed.publicKeyCredential, name: parsed.passkeyName }),
});
