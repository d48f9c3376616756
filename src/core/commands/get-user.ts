import { err, ok } from "neverthrow";
import { userNotFound } from "../errors/user-errors.js";
import type { GetUserResponse } from "../responses.js";
import { requestedUserId, userIdShape, withUserId } from "../schemas/user-id.js";
import { readDetails, renderUser } from "../users/render-user.js";
import { userListing } from "../users/user-listing.js";
import type { Command } from "./command.js";

/**
 * ZITADEL's v2 `GetUserByID` (`GET /v2/users/{userId}`): the user as its events say it is now.
 * Needs `user.read` on the user's organization; a user the requester may not read is not there (5).
 */
export const getUserCommand: Command<undefined, GetUserResponse> = {
  name: "getUser",
  fields: withUserId(),
  shape: userIdShape,
  access: () => ({ permission: "user.read", proof: false }),
  target: (request) => ({ userId: requestedUserId(request) }),
  parse: () => ok(undefined),
  decide({ user, organization }) {
    if (user === undefined) return Promise.resolve(err(userNotFound()));
    const listing = userListing(user);
    const details = readDetails(listing);
    // A read appends nothing: the answer is the state as loaded.
    return Promise.resolve(ok({ userId: user.userId, events: [], respond: () => ok({ details, user: renderUser(listing, organization) }) }));
  },
};
