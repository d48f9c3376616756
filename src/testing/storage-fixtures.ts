import type {
  IdentityProvider,
  NotificationRecord,
  Organization,
  OutboxNotification,
  StoredEvent,
  UniqueClaim,
  UserAppend,
  UserListing,
} from "../ports/storage.js";

/** The organizations and identity providers every contract test's store starts with. */
export const contractOrganizations: readonly Organization[] = [
  {
    id: "org-a",
    domains: [
      { domain: "Acme.Example", verified: true },
      { domain: "pending.example", verified: false },
    ],
    policy: {
      userLoginMustBeDomain: true,
      passwordComplexity: { minLength: 12, hasLowercase: true, hasUppercase: false, hasNumber: true, hasSymbol: false },
      lockout: { maxPasswordAttempts: 5 },
    },
  },
  { id: "org-b", domains: [{ domain: "beta.example", verified: true }] },
];

/** The identity providers every contract test's store starts with. */
export const contractIdentityProviders: readonly IdentityProvider[] = [
  { id: "idp-instance" },
  { id: "idp-org-a", orgId: "org-a" },
];

/** A fixed instant the outbox tests count from, so leases and retries never depend on the real clock. */
export const T0 = new Date("2030-01-01T00:00:00.000Z");

export function at(offsetMs: number): Date {
  return new Date(T0.getTime() + offsetMs);
}

export function usernameClaim(key: string, scope = ""): UniqueClaim {
  return { kind: "username", scope, key };
}

export function userIdClaim(userId: string): UniqueClaim {
  return { kind: "user_id", scope: "", key: userId };
}

/** What `newUserAppend` writes besides the user id's claim. */
export interface WriteOptions {
  readonly orgId?: string;
  /** Claims besides the user id's; default one instance-wide username claim `<userId>-name`. */
  readonly claims?: readonly UniqueClaim[];
  readonly events?: number;
  readonly notifications?: number;
}

export function eventOf(userId: string, orgId: string, sequence: number): StoredEvent {
  return {
    type: sequence === 1 ? "user.human.added" : "user.metadata.set",
    aggregateId: userId,
    orgId,
    sequence,
    createdAt: T0.toISOString(),
    // Nested values, unicode and every JSON kind, so a store that mangles payloads is caught.
    payload: { userName: `${userId}-name`, step: sequence, nested: { list: [1, "zwei", true, null], text: "Grüße, 世界" }, flag: false },
  };
}

export function notificationOf(userId: string, orgId: string, index: number): OutboxNotification {
  return {
    id: `${userId}-n${index}`,
    kind: index % 2 === 0 ? "email.verification" : "phone.verification",
    userId,
    orgId,
    recipient: index % 2 === 0 ? `${userId}@acme.example` : "+41791234567",
    code: `CODE${index}`,
    link: index % 2 === 0 ? `https://acme.example/verify?user=${userId}&code=CODE${index}` : "",
    locale: "de-CH",
    displayName: "Ada Lovelace",
    username: `${userId}-name`,
    createdAt: T0.toISOString(),
    expiresAt: at(3_600_000).toISOString(),
  };
}

/**
 * A user's listing as an append carries it: `<userId>-name`, `<userId>@acme.example`, created at
 * T0 and changed at its sequence's time, with `overrides` on top (folded copies included: set
 * them along with the texts they fold).
 */
export function listingOf(userId: string, orgId: string, sequence: number, overrides: Partial<UserListing> = {}): UserListing {
  return {
    userId,
    orgId,
    sequence,
    createdAt: T0.toISOString(),
    changedAt: at(sequence * 1000).toISOString(),
    state: "USER_STATE_ACTIVE",
    username: `${userId}-name`,
    givenName: "Ada",
    familyName: "Lovelace",
    nickName: "",
    displayName: "Ada Lovelace",
    preferredLanguage: "de-CH",
    gender: "GENDER_FEMALE",
    email: `${userId}@acme.example`,
    emailVerified: false,
    phoneVerified: false,
    passwordChangeRequired: false,
    usernameFolded: `${userId}-name`.toLowerCase(),
    emailFolded: `${userId}@acme.example`.toLowerCase(),
    displayNameFolded: "ada lovelace",
    givenNameFolded: "ada",
    familyNameFolded: "lovelace",
    nickNameFolded: "",
    ...overrides,
  };
}

function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}

/** A new user's append: `events` events numbered from 1, its claims and `notifications` notifications. */
export function newUserAppend(userId: string, options: WriteOptions = {}): UserAppend {
  const orgId = options.orgId ?? "org-a";
  return {
    userId,
    orgId,
    expectedSequence: 0,
    events: range(options.events ?? 2).map((index) => eventOf(userId, orgId, index + 1)),
    claims: [userIdClaim(userId), ...(options.claims ?? [usernameClaim(`${userId}-name`)])],
    notifications: range(options.notifications ?? 1).map((index) => notificationOf(userId, orgId, index)),
    listing: listingOf(userId, orgId, options.events ?? 2),
  };
}

/** How a notification freshly written looks in a store's snapshot. */
export function pendingRecord(notification: OutboxNotification): NotificationRecord {
  return { ...notification, attempts: 0, state: "pending" };
}

export interface ExistingUserOptions {
  readonly orgId?: string;
  readonly events?: number;
  readonly claims?: readonly UniqueClaim[];
  readonly releasedClaims?: readonly UniqueClaim[];
  readonly notifications?: readonly OutboxNotification[];
}

/** An append to an existing user: `events` events numbered after `expectedSequence`, claims taken and given up, `notifications` (default none). */
export function existingUserAppend(userId: string, expectedSequence: number, options: ExistingUserOptions = {}): UserAppend {
  const orgId = options.orgId ?? "org-a";
  return {
    userId,
    orgId,
    expectedSequence,
    events: range(options.events ?? 1).map((index) => eventOf(userId, orgId, expectedSequence + index + 1)),
    claims: options.claims ?? [],
    ...(options.releasedClaims !== undefined ? { releasedClaims: options.releasedClaims } : {}),
    notifications: options.notifications ?? [],
    listing: listingOf(userId, orgId, expectedSequence + (options.events ?? 1)),
  };
}
