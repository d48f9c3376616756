// A WireError in the Connect protocol's unary error form: `{code: "invalid_argument", message,
// details: [{type, value, debug}]}` where `value` is the detail's protobuf encoding in base64, so
// that Connect clients' `findDetails(schema)` decodes it.
import { BAD_REQUEST_TYPE, type ErrorBodyDetail, type FieldViolation } from "../core/errors/index.js";
import type { JsonObject } from "../shared/json.js";
import { concatBytes } from "../shared/bytes.js";
import { encodeBase64 } from "../shared/base64.js";
import { messageField, stringField } from "./protobuf-wire.js";
import type { WireCode, WireError } from "./wire-error.js";

const CONNECT_CODE: Readonly<Record<WireCode, string>> = {
  3: "invalid_argument",
  5: "not_found",
  6: "already_exists",
  7: "permission_denied",
  8: "resource_exhausted",
  9: "failed_precondition",
  10: "aborted",
  12: "unimplemented",
  13: "internal",
  14: "unavailable",
  16: "unauthenticated",
};

/** Connect's own code-to-status table (it differs from the gateway's for some codes we never send). */
const CONNECT_STATUS: Readonly<Record<WireCode, number>> = {
  3: 400,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  12: 501,
  13: 500,
  14: 503,
  16: 401,
};

export function connectStatus(code: WireCode): number {
  return CONNECT_STATUS[code];
}

interface ConnectDetail {
  readonly type: string;
  /** Standard base64 without padding, as Connect writes it. */
  readonly value: string;
  /** The same detail as JSON, for people reading the wire; clients decode `value`. */
  readonly debug: JsonObject;
}

function violationBytes(violation: FieldViolation): Uint8Array {
  return concatBytes(stringField(1, violation.field), stringField(2, violation.description));
}

/** Connect names a detail by its bare message name, where JSON's `@type` is a type URL. */
function messageName(typeUrl: string): string {
  return typeUrl.slice(typeUrl.lastIndexOf("/") + 1);
}

function connectDetail(detail: ErrorBodyDetail): ConnectDetail {
  const type = messageName(detail["@type"]);
  if (detail["@type"] === BAD_REQUEST_TYPE) {
    const violations = detail.fieldViolations;
    const value = concatBytes(...violations.map((violation) => messageField(1, violationBytes(violation))));
    const debug = { fieldViolations: violations.map(({ field, description }) => ({ field, description })) };
    return { type, value: encodeBase64(value, false), debug };
  }
  const value = concatBytes(stringField(1, detail.id), stringField(2, detail.message));
  return { type, value: encodeBase64(value, false), debug: { id: detail.id, message: detail.message } };
}

export interface ConnectErrorBody {
  readonly code: string;
  readonly message: string;
  readonly details: readonly ConnectDetail[];
}

export function connectErrorBody(error: WireError): ConnectErrorBody {
  return { code: CONNECT_CODE[error.code], message: error.message, details: error.details.map(connectDetail) };
}
