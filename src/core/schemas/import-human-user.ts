import { err, type Result } from "neverthrow";
import * as v from "valibot";
import type { FieldViolation } from "../errors/index.js";
import { isGlobalNumber, normalizePhoneNumber } from "../rules/phone-number.js";
import { normalizeUsername } from "../rules/username.js";
import type { DraftInProgress, UserDraft } from "../user-draft.js";
import { flag, list, optional, parsedWith, record, text } from "../validation/fields.js";
import { violation } from "../validation/violations.js";
import { profileDraft } from "./draft-helpers.js";
import { member, repeatedIdpAccounts, requiredObjects } from "./structure.js";
import { requestParser } from "./request-parser.js";
import { emailAddress, encodedHash, gender, identifier, languageTag, MAX_TEXT, optionalName, personName, plainPassword, username } from "./fields.js";
import { neutralRulesContext, type RulesContext } from "./rules-context.js";
import { defaultRequestLimits } from "../validation/request-limits.js";
import type { FieldTree } from "../wire/field-tree.js";
import { fieldTreeOf } from "./field-tree-of.js";

const FIELD_ORDER = ["userName", "profile", "email", "phone", "password", "hashedPassword", "passwordChangeRequired", "requestPasswordlessRegistration", "idps"];

/** 1..50 characters, written as an RFC 3966 global number, stored in E.164. */
const globalPhoneNumber = v.pipe(
  text({ min: 1, max: 50 }),
  parsedWith((phone: string): Result<string, string> =>
    isGlobalNumber(phone.trim()) ? normalizePhoneNumber(phone, undefined) : err("must be a global number: + and the country code, then digits"),
  ),
);

function requestSchema(context: RulesContext) {
  const limits = context.limits ?? defaultRequestLimits;
  return v.object({
    userName: optional(username),
    profile: record({
      firstName: personName,
      lastName: personName,
      nickName: optional(optionalName),
      displayName: optional(optionalName),
      preferredLanguage: optional(languageTag),
      gender: optional(gender),
    }),
    email: record({ email: emailAddress, isEmailVerified: optional(flag) }),
    phone: optional(record({ phone: globalPhoneNumber, isPhoneVerified: optional(flag) })),
    password: optional(plainPassword(context)),
    hashedPassword: optional(record({ value: encodedHash(context) })),
    passwordChangeRequired: optional(flag),
    requestPasswordlessRegistration: optional(flag),
    idps: optional(
      list(record({ configId: identifier, externalUserId: identifier, displayName: optional(text({ min: 0, max: MAX_TEXT })) }), {
        maxEntries: limits.maxIdentityProviderLinks,
        maxViolations: limits.maxFieldViolations,
      }),
    ),
  });
}

type ParsedImportRequest = v.InferOutput<ReturnType<typeof requestSchema>>;

function toDraft(parsed: ParsedImportRequest): UserDraft {
  const { profile, email, phone } = parsed;
  const changeRequired = parsed.passwordChangeRequired === true;
  const plain = parsed.password ?? undefined;
  const hashed = parsed.hashedPassword?.value ?? undefined;
  // Optional members set one by one, not spread in: a conditional spread costs a temporary object
  // and a copy each on Node 20's V8.
  const draft: DraftInProgress = {
    // A username taken from the email is stored like a given one: trimmed and in NFC.
    username: parsed.userName ?? normalizeUsername(email.email),
    profile: profileDraft(profile.firstName, profile.lastName, profile),
    email: { address: email.email, verified: email.isEmailVerified === true, codeDelivery: email.isEmailVerified === true ? "none" : "send" },
    metadata: [],
    idpLinks: (parsed.idps ?? []).map((idp) => ({ idpId: idp.configId, externalUserId: idp.externalUserId, displayName: idp.displayName ?? "" })),
    passwordlessRegistration: parsed.requestPasswordlessRegistration === true,
  };
  if (phone != null) draft.phone = { number: phone.phone, verified: phone.isPhoneVerified === true, codeDelivery: phone.isPhoneVerified === true ? "none" : "send" };
  if (plain !== undefined) draft.password = { kind: "plain", plain, changeRequired };
  if (hashed !== undefined) draft.password = { kind: "hashed", encoded: hashed, changeRequired };
  return draft;
}

function crossFieldViolations(request: unknown): FieldViolation[] {
  const both = member(request, "password") != null && member(request, "hashedPassword") != null;
  return [...(both ? [violation(["password"], "password and hashedPassword cannot both be set")] : []), ...repeatedIdpAccounts(request, "idps", "configId", "externalUserId")];
}

/** Every rule of the `importHumanUser` request, all violations at once, or the normalized draft. */
export const parseImportRequest = requestParser({ schema: requestSchema, crossField: crossFieldViolations, toDraft, fieldOrder: FIELD_ORDER });

/** The first check: a JSON object with `profile` and `email` objects. */
export function importRequestShape(request: Readonly<Record<string, unknown>>): FieldViolation[] {
  return requiredObjects(request, ["profile", "email"]);
}

/** Every field `importHumanUser` reads: the only parts of a request that are copied. */
export const importRequestFields: FieldTree = fieldTreeOf(requestSchema(neutralRulesContext));
