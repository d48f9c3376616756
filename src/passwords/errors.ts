import { errorBody, type ErrorBody } from "../shared/error-body.js";
import type { HashRejection, HashRejectionReason } from "./rejection.js";

/** Stable error ids, one per kind of refusal. */
const IDS: Readonly<Record<HashRejectionReason, string>> = {
  "unknown-format": "PASSWORD-f0rm",
  malformed: "PASSWORD-m4lf",
  "cost-out-of-range": "PASSWORD-c0st",
  "password-too-long": "PASSWORD-l0ng",
  "invalid-password": "PASSWORD-1npt",
};

/** Code 3: the rejection's message, which names a field and never contains the hash. */
export function rejectionBody(rejection: HashRejection): ErrorBody {
  return errorBody(3, IDS[rejection.reason], rejection.message);
}

/** Code 13 for a failure inside hashing; the cause is not put in the body. */
export function internalBody(id: "PASSWORD-h4sh" | "PASSWORD-v3ri", what: string): ErrorBody {
  return errorBody(13, id, `${what} failed`);
}
