import type { CreateHumanUserResponse } from "../responses.js";
import { createRequestFields, createRequestShape, organizationViolations, parseCreateRequest } from "../schemas/create-human-user.js";
import { member } from "../schemas/structure.js";
import type { UserDraft } from "../user-draft.js";
import { pruneEmpty } from "../wire/prune.js";
import type { Command } from "./command.js";
import { decideCreation, type CreationSpec } from "./user-creation.js";

const creation: CreationSpec<CreateHumanUserResponse> = {
  kind: "create",
  usernameField: ({ request }) => (request["username"] != null ? "username" : "email.email"),
  respond(facts, extras) {
    return pruneEmpty<CreateHumanUserResponse>({
      userId: facts.userId,
      details: { sequence: facts.sequence, changeDate: facts.date, resourceOwner: facts.resourceOwner },
      emailCode: extras.emailCode,
      phoneCode: extras.phoneCode,
    });
  },
};

/** ZITADEL's v2 `AddHumanUser` (`POST /v2/users/human`): a new user with verification codes. */
export const createHumanUserCommand: Command<UserDraft, CreateHumanUserResponse> = {
  name: "createHumanUser",
  takesPasswordHashes: true,
  fields: createRequestFields,
  shape: createRequestShape,
  access: () => ({ permission: "user.write", proof: false }),
  target(request, context, requester) {
    const organization = request["organization"];
    if (organizationViolations(organization).length > 0) return undefined;
    const orgId = member(organization, "orgId");
    const orgDomain = member(organization, "orgDomain");
    if (typeof orgId === "string") return { organization: { orgId } };
    if (typeof orgDomain === "string") return { organization: { orgDomain } };
    return { organization: { orgId: context.orgId || (requester?.orgId ?? "") } };
  },
  parse: parseCreateRequest,
  decide: (input) => decideCreation(creation, input),
};
