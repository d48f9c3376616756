import * as v from "valibot";
import { optional, record } from "../validation/fields.js";
import { plainPassword, verificationCode } from "./fields.js";
import type { RulesContext } from "./rules-context.js";
import { schemaParser } from "./schema-parser.js";
import { withUserId } from "./user-id.js";

const verifyCode = schemaParser(() => record({ verificationCode }), ["userId", "verificationCode"]);

/** `verifyEmail` and `verifyPhone`: the code, compared exactly (it is not trimmed). */
export const parseVerifyCodeRequest = verifyCode.parse;
export const verifyCodeFields = withUserId(verifyCode.fields);

function verifyInitSchema(context: RulesContext) {
  return record({ verificationCode, password: optional(plainPassword(context)) });
}

export type VerifyInitCodeParsed = v.InferOutput<ReturnType<typeof verifyInitSchema>>;

const verifyInit = schemaParser(verifyInitSchema, ["userId", "verificationCode", "password"]);

/** `verifyInitCode`: the code, and a first password checked against the organization's policy. */
export const parseVerifyInitCodeRequest = verifyInit.parse;
export const verifyInitCodeFields = withUserId(verifyInit.fields);
