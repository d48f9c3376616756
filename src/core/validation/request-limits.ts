import type { RequestLimits } from "../../ports/config.js";
import { DEFAULT_MAX_FIELD_VIOLATIONS } from "../../shared/error-body.js";
import { MAX_LIST_ENTRIES } from "../wire/field-tree.js";

export type ResolvedRequestLimits = Required<RequestLimits>;

/**
 * Far above what a real user has: ZITADEL sets no number, and a user with more than a handful of
 * metadata keys or linked identity providers is rare. Above the violation cap, so that a list's
 * entries are checked, and reported, up to the cap before its length is held against it. At 1000 entries of up to 500,000 characters
 * the body size limit of any HTTP host binds long before the list limit does.
 */
export const defaultRequestLimits: ResolvedRequestLimits = Object.freeze({
  maxMetadataEntries: 1000,
  maxIdentityProviderLinks: 1000,
  maxFieldViolations: DEFAULT_MAX_FIELD_VIOLATIONS,
});

function wholeNumber(value: number | undefined, fallback: number, most: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.min(Math.floor(value), most) : fallback;
}

/** The configured limits over the defaults; a list limit above MAX_LIST_ENTRIES counts as that. */
export function resolveRequestLimits(configured: RequestLimits | undefined): ResolvedRequestLimits {
  const defaults = defaultRequestLimits;
  return {
    maxMetadataEntries: wholeNumber(configured?.maxMetadataEntries, defaults.maxMetadataEntries, MAX_LIST_ENTRIES),
    maxIdentityProviderLinks: wholeNumber(configured?.maxIdentityProviderLinks, defaults.maxIdentityProviderLinks, MAX_LIST_ENTRIES),
    maxFieldViolations: wholeNumber(configured?.maxFieldViolations, defaults.maxFieldViolations, Number.MAX_SAFE_INTEGER),
  };
}
