import type { JsonObject } from "../shared/json.js";

export interface PasswordComplexityPolicy {
  readonly minLength?: number;
  readonly hasLowercase?: boolean;
  readonly hasUppercase?: boolean;
  readonly hasNumber?: boolean;
  readonly hasSymbol?: boolean;
}

export interface OrganizationPolicy {
  readonly passwordComplexity?: PasswordComplexityPolicy;
  /** When true, usernames are unique within this organization only (the reference server's name). */
  readonly userLoginMustBeDomain?: boolean;
}

export interface OrganizationDomain {
  readonly domain: string;
  readonly verified: boolean;
}

export interface Organization {
  readonly id: string;
  readonly domains: readonly OrganizationDomain[];
  readonly policy?: OrganizationPolicy;
}

export interface IdentityProvider {
  readonly id: string;
  /** The owning organization; absent for a provider configured instance-wide. */
  readonly orgId?: string;
}

export type ClaimKind = "user_id" | "username" | "idp_link";

/**
 * A uniqueness claim. `key` is already normalized by the core (usernames lower-cased and NFC), so a
 * store compares keys exactly; `scope` is "" for instance-wide claims, else an organization id.
 */
export interface UniqueClaim {
  readonly kind: ClaimKind;
  readonly scope: string;
  readonly key: string;
}

export type EventType =
  | "user.human.added"
  | "user.human.email.verified"
  | "user.human.email.code.added"
  | "user.human.initialization.code.added"
  | "user.human.phone.verified"
  | "user.human.phone.code.added"
  | "user.metadata.set"
  | "user.human.externalidp.added"
  | "user.human.mfa.otp.added"
  | "user.human.mfa.otp.verified"
  | "user.human.passwordless.initialization.code.added";

export interface StoredEvent {
  readonly type: EventType;
  /** The user the event belongs to. */
  readonly aggregateId: string;
  readonly orgId: string;
  /** 1, 2, 3, ... per user. */
  readonly sequence: number;
  /** RFC 3339 UTC. */
  readonly createdAt: string;
  /** JSON; never a plain password, code or secret. */
  readonly payload: JsonObject;
}

export type NotificationKind = "email.verification" | "email.initialization" | "phone.verification";

/** A message waiting in the outbox. The plain code lives here only until it is delivered. */
export interface OutboxNotification {
  /** Stable: every delivery attempt carries it, so a mailer can drop duplicates. */
  readonly id: string;
  readonly kind: NotificationKind;
  readonly userId: string;
  readonly orgId: string;
  /** Email address or E.164 phone number. */
  readonly recipient: string;
  readonly code: string;
  /** The link in the message; "" for SMS. */
  readonly link: string;
  /** BCP 47 tag of the user's preferred language ("und" when unknown). */
  readonly locale: string;
  readonly displayName: string;
  readonly username: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

export interface PendingNotification extends OutboxNotification {
  /** Delivery attempts made so far. */
  readonly attempts: number;
}

export type DeliveryState = "pending" | "delivered" | "dead";

/**
 * A notification as a store keeps it, with its delivery state: what adapters show to tests and
 * to hosts inspecting the outbox. Delivered and dead notifications have `code` and `link` erased ("").
 */
export interface NotificationRecord extends PendingNotification {
  readonly state: DeliveryState;
  /** RFC 3339; hidden from `leaseNotifications` until then. */
  readonly leasedUntil?: string;
  /** RFC 3339; a failed notification is handed out again from then on. */
  readonly retryAt?: string;
  readonly deliveredAt?: string;
  /** The last failure's time and message. */
  readonly failedAt?: string;
  readonly lastError?: string;
}

/** Everything a store holds, for tests and inspection: events and notifications in writing order, claims in any order. */
export interface StorageSnapshot {
  readonly events: readonly StoredEvent[];
  readonly claims: readonly UniqueClaim[];
  readonly notifications: readonly NotificationRecord[];
}

/** Everything one user's creation writes; a store writes all of it or nothing. */
export interface UserWrite {
  readonly userId: string;
  readonly orgId: string;
  readonly events: readonly StoredEvent[];
  readonly claims: readonly UniqueClaim[];
  readonly notifications: readonly OutboxNotification[];
}

export type AppendOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly conflict: UniqueClaim };

export interface LeaseRequest {
  readonly now: Date;
  readonly limit: number;
  /** Until when the leased notifications are hidden from other workers. */
  readonly leaseUntil: Date;
  /** Lease only these ids (the ones a write just produced); all due ones when absent. */
  readonly ids?: readonly string[];
}

export interface DeliveryFailure {
  readonly at: Date;
  readonly error: string;
  /** When to try again; absent means the notification is dead (no more attempts). */
  readonly retryAt?: Date;
}

/**
 * An append-only event store with uniqueness claims and a notification outbox.
 *
 * Methods reject on failure; a store that cannot be reached rejects with a
 * `StorageUnavailableError`. A held claim is an outcome, not a failure.
 */
export interface Storage {
  findOrganization(id: string): Promise<Organization | undefined>;
  /** The organization that has verified this domain (compared ignoring case). */
  findOrganizationByDomain(domain: string): Promise<Organization | undefined>;
  findIdentityProvider(id: string): Promise<IdentityProvider | undefined>;
  /** The subset of `claims` that somebody already holds. */
  findHeldClaims(claims: readonly UniqueClaim[]): Promise<readonly UniqueClaim[]>;
  /** Writes events, claims and notifications atomically; a held claim fails the whole write. */
  appendUser(write: UserWrite): Promise<AppendOutcome>;
  /**
   * Optional batch write for bulk import: each write atomic on its own, as if `appendUser` were
   * called for each in order (so of two writes holding one claim the first wins, and a write that
   * fails releases its claims to the later ones). One outcome per write, in order. Rejects on
   * failure, and then writes none of the batch.
   */
  appendUsers?(writes: readonly UserWrite[]): Promise<readonly AppendOutcome[]>;
  /** One user's events in sequence order. */
  loadEvents(userId: string): Promise<readonly StoredEvent[]>;
  /** Hands out due notifications and hides them from other callers until `leaseUntil`. */
  leaseNotifications(request: LeaseRequest): Promise<readonly PendingNotification[]>;
  /** Records a delivery and erases the plain code and link. */
  markNotificationDelivered(id: string, at: Date): Promise<void>;
  markNotificationFailed(id: string, failure: DeliveryFailure): Promise<void>;
}

/** Thrown (rejected) by a store that cannot reach its database: the operation answers code 14. */
export class StorageUnavailableError extends Error {
  override readonly name = "StorageUnavailableError";
}
