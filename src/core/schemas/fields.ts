// Field schemas both operations share: one rule, one place.
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { decodeLenientBase64 } from "../../shared/base64.js";
import { longerThanUtf8Bytes } from "../../shared/bytes.js";
import { isEmailAddress } from "../rules/email-address.js";
import { CODE_LENGTH } from "../secrets/codes.js";
import { parseGender, type Gender } from "../rules/gender.js";
import { canonicalLanguageTag } from "../rules/language-tag.js";
import { passwordPolicyProblems } from "../rules/password-policy.js";
import { normalizeUsername } from "../rules/username.js";
import { parsedWith, text } from "../validation/fields.js";
import type { RulesContext } from "./rules-context.js";

export const MAX_TEXT = 200;

/**
 * A code a person was sent, as a caller gives it back: compared exactly (never trimmed), and no
 * longer than any code is made (CODE_LENGTH.max), so that a text that cannot be a code is a bad
 * request rather than a wrong try counted against the real one. ZITADEL's limit is 20; codes here
 * may be configured longer.
 */
export const verificationCode = text({ min: 1, max: CODE_LENGTH.max });

export const identifier = text({ min: 1, max: MAX_TEXT });

export const username = v.pipe(
  text({ min: 1, max: MAX_TEXT, nonBlank: true }),
  v.transform(normalizeUsername),
);

export const personName = v.pipe(text({ min: 1, max: MAX_TEXT, nonBlank: true }), v.transform((name) => name.trim()));
export const optionalName = v.pipe(text({ min: 0, max: MAX_TEXT }), v.transform((name) => name.trim()));
export const languageTag = v.pipe(text({ min: 0, max: 10 }), v.transform(canonicalLanguageTag));

export const gender = v.pipe(
  v.unknown(),
  parsedWith((value: unknown): Result<Gender, string> => {
    const parsed = parseGender(value);
    return parsed === undefined ? err("must be one of GENDER_UNSPECIFIED, GENDER_FEMALE, GENDER_MALE, GENDER_DIVERSE (or 0 to 3)") : ok(parsed);
  }),
);

/** Trimmed, kept as given otherwise. */
export const emailAddress = v.pipe(
  text({ min: 1, max: MAX_TEXT }),
  v.transform((address) => address.trim()),
  parsedWith((address: string): Result<string, string> => (isEmailAddress(address) ? ok(address) : err("is not a valid email address"))),
);

export const metadataValue = v.pipe(
  text({ min: 1, max: 500_000 }),
  parsedWith((value: string): Result<Uint8Array, string> => {
    const bytes = decodeLenientBase64(value);
    return bytes === undefined ? err("must be base64 encoded") : ok(bytes);
  }),
);

/**
 * A new password. Never stored, yet held to the rule of every text field: an unpaired surrogate
 * has no UTF-8 form (an encoder would make two different passwords one), and a NUL ends the
 * password early in bcrypt-family and C-string verifiers the hash may later move to.
 */
export function plainPassword(context: RulesContext) {
  return v.pipe(
    text({ min: 1, max: MAX_TEXT }),
    // A transformation, so it runs only when the length is right: one problem at a time.
    v.rawTransform<string, string>(({ dataset, addIssue, NEVER }) => {
      const problems = passwordPolicyProblems(dataset.value, context.passwordPolicy);
      // A password no verification would take (hashBounds.maxPasswordBytes) would lock its user out.
      const limit = context.maxPasswordBytes;
      if (limit !== undefined && longerThanUtf8Bytes(dataset.value, limit)) problems.push(`must be at most ${limit} bytes long`);
      for (const problem of problems) addIssue({ message: problem });
      return problems.length === 0 ? dataset.value : NEVER;
    }),
  );
}

/**
 * An imported hash, fully parsed and within the cost bounds; the message never echoes the hash.
 * A NUL or an unpaired surrogate is refused by the text rule first (no hash format holds one).
 */
export function encodedHash(context: RulesContext) {
  return v.pipe(
    text({ min: 1, max: MAX_TEXT }),
    parsedWith((encoded: string): Result<string, string> => {
      const refusal = context.refusalOfHash(encoded);
      return refusal === undefined ? ok(encoded) : err(refusal);
    }),
  );
}
