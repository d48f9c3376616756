import * as v from "valibot";
import { optional, record, text } from "../validation/fields.js";
import { MAX_TEXT, plainPassword } from "./fields.js";
import { schemaParser } from "./schema-parser.js";

const verificationCode = text({ min: 1, max: MAX_TEXT });

/** `verifyEmail` and `verifyPhone`: the code, compared exactly (it is not trimmed). */
export const parseVerifyCodeRequest = schemaParser(() => record({ verificationCode }), ["userId", "verificationCode"]);

export type VerifyInitCodeParsed = v.InferOutput<ReturnType<typeof verifyInitSchema>>;

function verifyInitSchema(context: Parameters<typeof plainPassword>[0]) {
  return record({ verificationCode, password: optional(plainPassword(context)) });
}

/** `verifyInitCode`: the code, and a first password checked against the organization's policy. */
export const parseVerifyInitCodeRequest = schemaParser(verifyInitSchema, ["userId", "verificationCode", "password"]);
