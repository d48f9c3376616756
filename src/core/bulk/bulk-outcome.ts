import type { ErrorBody } from "../../shared/error-body.js";
import type { ImportHumanUserResponse } from "../responses.js";

/**
 * The user a row was compared with: the row at `earlierIndex` of the same source (to be written by
 * this import), or a user already stored, by its id; `hiddenUser` for a stored user the requester
 * may not read (its id is not told, as `getUser` would not tell it either).
 */
export type ImportHolder = { readonly earlierIndex: number } | { readonly userId: string } | { readonly hiddenUser: true };

/**
 * Another user holds what the row wants: `claim` is what was taken (`username`, or `idp_link` for
 * an identity-provider account), `field` the request field it came from (`userName`, `email.email`
 * when the username is the email, `idps[0].externalUserId`, ...), and the holder.
 */
export type ImportConflict = ImportHolder & { readonly claim: "username" | "idp_link"; readonly field: string };

/**
 * What became of the item at `index` (0-based position in the source):
 * - `ok`: imported, with the body `importHumanUser` gives;
 * - `alreadyThere`: the same user (same import fingerprint, see `importFingerprint`) was imported
 *   before, by an earlier row of the source or an earlier import: nothing written, not a failure;
 * - `wouldImport`: in a dry run, a row that would be imported;
 * - `error`: refused with the body `importHumanUser` gives; with `conflict` when a different user
 *   holds its username or identity-provider account (code 6); with `sameUserAs` when the row is the
 *   same user as the earlier row at `earlierIndex`, which was to be written but was not: the row
 *   fails with that row's error (it is not there, so it is not "already there"), and a re-run
 *   imports the user once.
 */
export type BulkImportOutcome =
  | { readonly index: number; readonly ok: ImportHumanUserResponse }
  | { readonly index: number; readonly alreadyThere: ImportHolder }
  | { readonly index: number; readonly wouldImport: true }
  | { readonly index: number; readonly error: ErrorBody; readonly conflict?: ImportConflict; readonly sameUserAs?: { readonly earlierIndex: number } };
