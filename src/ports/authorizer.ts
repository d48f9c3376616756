/** The authenticated caller of an operation. */
export interface Requester {
  readonly userId: string;
  readonly orgId: string;
  /** Allowed to write users in every organization (the default authorizer's only notion of rank). */
  readonly instanceAdmin?: boolean;
}

/** What a requester asks to do: write users, or read them. */
export type Permission = "user.write" | "user.read";

/**
 * Decides whether a requester holds a permission. `orgId` undefined asks about the whole instance
 * ("may this requester write users everywhere?"), which decides between code 5 and code 7 for an
 * organization that does not exist.
 */
export interface Authorizer {
  /**
   * Whether `requester` may do `permission` in organization `orgId` (`undefined`: instance-wide).
   * `userId` is the existing user the request acts on (absent for a new user and for lists): a
   * host that lets users read and change themselves, as ZITADEL does, answers `true` when it is
   * `requester.userId`.
   */
  hasPermission(requester: Requester, permission: Permission, orgId: string | undefined, userId?: string): boolean | Promise<boolean>;
}
