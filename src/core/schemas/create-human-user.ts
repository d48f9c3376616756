import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import type { FieldViolation } from "../errors/index.js";
import { characterCount } from "../rules/characters.js";
import { normalizePhoneNumber } from "../rules/phone-number.js";
import { parseTotpSecret } from "../rules/totp-secret.js";
import { parseUrlTemplate } from "../rules/url-template.js";
import { unstorableTextProblem } from "../rules/storable-text.js";
import { normalizeUsername } from "../rules/username.js";
import type { CodeDelivery, DraftInProgress, UserDraft } from "../user-draft.js";
import { emptyMessage, flag, list, optional, parsedWith, record, text } from "../validation/fields.js";
import { violation } from "../validation/violations.js";
import { atMostOneOf, member, repeatedIdpAccounts, requiredObjects } from "./structure.js";
import { requestParser } from "./request-parser.js";
import { lastValuePerKey, profileDraft } from "./draft-helpers.js";
import {
  emailAddress,
  encodedHash,
  gender,
  identifier,
  languageTag,
  MAX_TEXT,
  metadataValue,
  optionalName,
  personName,
  plainPassword,
  username,
} from "./fields.js";
import { neutralRulesContext, type RulesContext } from "./rules-context.js";
import { defaultRequestLimits } from "../validation/request-limits.js";
import { mergeFieldTrees, type FieldTree } from "../wire/field-tree.js";
import { fieldTreeOf } from "./field-tree-of.js";

const FIELD_ORDER = ["userId", "username", "organization", "profile", "email", "phone", "metadata", "password", "hashedPassword", "idpLinks", "totpSecret"];

/**
 * A TOTP secret or otpauth URI, in characters: room for a 1,024-bit secret in base32 and a URI with
 * a long label and issuer. Without a bound a caller could have any amount of text sealed and
 * stored in an event.
 */
const MAX_TOTP_SECRET = 2000;

const urlTemplate = v.pipe(text({ min: 1, max: MAX_TEXT }), parsedWith(parseUrlTemplate));

function phoneNumber(context: RulesContext) {
  return v.pipe(
    text({ min: 0, max: MAX_TEXT }),
    // Only an empty number means no phone; white space alone is a number left out by mistake.
    parsedWith((phone: string): Result<string | undefined, string> => {
      if (phone === "") return ok(undefined);
      if (phone.trim() === "") return err("is blank: give a number, or leave it empty for no phone");
      return normalizePhoneNumber(phone, context.defaultPhoneRegion);
    }),
  );
}

function requestSchema(context: RulesContext) {
  const limits = context.limits ?? defaultRequestLimits;
  return v.object({
    userId: optional(identifier),
    username: optional(username),
    profile: record({
      givenName: personName,
      familyName: personName,
      nickName: optional(optionalName),
      displayName: optional(optionalName),
      preferredLanguage: optional(languageTag),
      gender: optional(gender),
    }),
    email: record({
      email: emailAddress,
      sendCode: optional(record({ urlTemplate: optional(urlTemplate) })),
      returnCode: optional(emptyMessage),
      isVerified: optional(flag),
    }),
    phone: optional(
      record({
        phone: optional(phoneNumber(context)),
        sendCode: optional(emptyMessage),
        returnCode: optional(emptyMessage),
        isVerified: optional(flag),
      }),
    ),
    metadata: optional(
      list(record({ key: text({ min: 1, max: MAX_TEXT, nonBlank: true }), value: metadataValue }), {
        maxEntries: limits.maxMetadataEntries,
        maxViolations: limits.maxFieldViolations,
      }),
    ),
    password: optional(record({ password: plainPassword(context), changeRequired: optional(flag) })),
    hashedPassword: optional(record({ hash: encodedHash(context), changeRequired: optional(flag) })),
    idpLinks: optional(
      list(record({ idpId: identifier, userId: identifier, userName: identifier }), {
        maxEntries: limits.maxIdentityProviderLinks,
        maxViolations: limits.maxFieldViolations,
      }),
    ),
    totpSecret: optional(v.pipe(text({ min: 0, max: MAX_TOTP_SECRET }), parsedWith(parseTotpSecret))),
  });
}

type ParsedCreateRequest = v.InferOutput<ReturnType<typeof requestSchema>>;

/** Violations checked on the raw request: the organization (read before the schema too, to find the target), and members that exclude each other. */
function crossFieldViolations(request: unknown): FieldViolation[] {
  const email = member(request, "email");
  const phone = member(request, "phone");
  const both = member(request, "password") != null && member(request, "hashedPassword") != null;
  return [
    ...organizationViolations(member(request, "organization")),
    ...atMostOneOf(email, ["email"], ["sendCode", "returnCode", "isVerified"]),
    ...atMostOneOf(phone, ["phone"], ["sendCode", "returnCode", "isVerified"]),
    ...(both ? [violation(["password"], "password and hashedPassword cannot both be set")] : []),
    ...repeatedIdpAccounts(request, "idpLinks", "idpId", "userId"),
  ];
}

function codeDelivery(channel: { readonly returnCode?: unknown; readonly isVerified?: boolean | null | undefined }): CodeDelivery {
  if (channel.isVerified === true) return "none";
  return channel.returnCode != null ? "return" : "send";
}

function toDraft(parsed: ParsedCreateRequest): UserDraft {
  const { profile, email, phone } = parsed;
  const phoneNumber = phone?.phone ?? undefined;
  const password = parsed.password ?? undefined;
  const hashed = parsed.hashedPassword ?? undefined;
  const urlTemplate = email.sendCode?.urlTemplate ?? undefined;
  // Optional members set one by one, not spread in: a conditional spread costs a temporary object
  // and a copy each on Node 20's V8.
  const draft: DraftInProgress = {
    // A username taken from the email is stored like a given one: trimmed and in NFC.
    username: parsed.username ?? normalizeUsername(email.email),
    profile: profileDraft(profile.givenName, profile.familyName, profile),
    email:
      urlTemplate !== undefined
        ? { address: email.email, verified: email.isVerified === true, codeDelivery: codeDelivery(email), urlTemplate }
        : { address: email.email, verified: email.isVerified === true, codeDelivery: codeDelivery(email) },
    metadata: lastValuePerKey(parsed.metadata ?? []),
    idpLinks: (parsed.idpLinks ?? []).map((link) => ({ idpId: link.idpId, externalUserId: link.userId, displayName: link.userName })),
    passwordlessRegistration: false,
  };
  if (parsed.userId != null) draft.userId = parsed.userId;
  if (phone != null && phoneNumber !== undefined) draft.phone = { number: phoneNumber, verified: phone.isVerified === true, codeDelivery: codeDelivery(phone) };
  if (password !== undefined) draft.password = { kind: "plain", plain: password.password, changeRequired: password.changeRequired === true };
  if (hashed !== undefined) draft.password = { kind: "hashed", encoded: hashed.hash, changeRequired: hashed.changeRequired === true };
  if (parsed.totpSecret != null) draft.totpSecret = parsed.totpSecret;
  return draft;
}

/** Every rule of the `createHumanUser` request, all violations at once, or the normalized draft. */
export const parseCreateRequest = requestParser({ schema: requestSchema, crossField: crossFieldViolations, toDraft, fieldOrder: FIELD_ORDER });

/** The first check: a JSON object with `profile` and `email` objects. */
export function createRequestShape(request: Readonly<Record<string, unknown>>): FieldViolation[] {
  return requiredObjects(request, ["profile", "email"]);
}

/**
 * What is wrong with the request's `organization`: it must name exactly one of `orgId` and
 * `orgDomain`, as text a store can hold. A field rule, reported beside all others; the target
 * organization is only looked up when there is none (see the command's `target`).
 */
export function organizationViolations(organization: unknown): FieldViolation[] {
  if (organization === undefined || organization === null) return [];
  if (typeof organization !== "object" || Array.isArray(organization)) return [violation(["organization"], "must be an object")];
  const orgId = member(organization, "orgId");
  const orgDomain = member(organization, "orgDomain");
  const named = [orgId, orgDomain].filter((value) => value !== undefined && value !== null);
  if (named.length !== 1) return [violation(["organization"], "must name exactly one of orgId and orgDomain")];
  const field = ["organization", orgId != null ? "orgId" : "orgDomain"];
  const name = named[0];
  if (typeof name !== "string" || name.length === 0 || characterCount(name) > MAX_TEXT) return [violation(field, `must be a string of 1 to ${MAX_TEXT} characters`)];
  const problem = unstorableTextProblem(name);
  return problem === undefined ? [] : [violation(field, problem)];
}

/** Read by `organizationViolations` and the target organization, beside the schema. */
const organizationFields: FieldTree = { members: new Map([["organization", { members: new Map([["orgId", {}], ["orgDomain", {}]]) }]]) };

/** Every field `createHumanUser` reads: the only parts of a request that are copied. */
export const createRequestFields: FieldTree = mergeFieldTrees(fieldTreeOf(requestSchema(neutralRulesContext)), organizationFields);
