import type { ImportHumanUserResponse } from "../responses.js";
import { importRequestFields, importRequestShape, parseImportRequest } from "../schemas/import-human-user.js";
import type { UserDraft } from "../user-draft.js";
import { durationSeconds } from "../wire/timestamp.js";
import { pruneEmpty } from "../wire/prune.js";
import type { Command, RequestObject } from "./command.js";
import { decideCreation, type CreationSpec } from "./user-creation.js";

/** The field a row's username comes from: `userName`, or the email it defaults to. */
export function importUsernameField(request: RequestObject): "userName" | "email.email" {
  return request["userName"] != null ? "userName" : "email.email";
}

const creation: CreationSpec<ImportHumanUserResponse> = {
  kind: "import",
  usernameField: ({ request }) => importUsernameField(request),
  respond(facts, extras) {
    const passwordless = extras.passwordlessLink;
    const lifetime = passwordless === undefined ? undefined : durationSeconds(passwordless.lifetimeSeconds);
    return pruneEmpty<ImportHumanUserResponse>({
      userId: facts.userId,
      details: { sequence: facts.sequence, creationDate: facts.date, changeDate: facts.date, resourceOwner: facts.resourceOwner },
      passwordlessRegistration:
        passwordless === undefined || lifetime === undefined ? undefined : { link: passwordless.link, lifetime, expiration: lifetime },
    });
  },
};

/** The import without codes or messages, for hosts that send their own invitations (bulk import's `withoutCodes`). */
const creationWithoutCodes: CreationSpec<ImportHumanUserResponse> = { ...creation, withoutCodes: true };

/**
 * ZITADEL's management `ImportHumanUser` (`POST /management/v1/users/human/_import`): a new user
 * with its old password hash, initialization mail and passwordless link; bulk import reuses it.
 */
export const importHumanUserCommand: Command<UserDraft, ImportHumanUserResponse> = {
  name: "importHumanUser",
  takesPasswordHashes: true,
  fields: importRequestFields,
  shape: importRequestShape,
  access: () => ({ permission: "user.write", proof: false }),
  // An empty header names no organization, as an absent one.
  target: (_request, context, requester) => ({ organization: { orgId: context.orgId || (requester?.orgId ?? "") } }),
  parse: parseImportRequest,
  decide: (input) => decideCreation(creation, input),
};

/** `importHumanUserCommand` writing no initialization code, no phone code and no message. */
export const importWithoutCodesCommand: Command<UserDraft, ImportHumanUserResponse> = {
  ...importHumanUserCommand,
  decide: (input) => decideCreation(creationWithoutCodes, input),
};
