// Rows as the statements in statements.ts select them, and their mapping to the port's types.
// The casts from `unknown` happen here only: the SQL fixes each row's shape.
import type { JsonObject } from "../../shared/json.js";
import type {
  ClaimKind,
  DeliveryState,
  IdentityProvider,
  NotificationKind,
  NotificationRecord,
  Organization,
  OrganizationDomain,
  OrganizationPolicy,
  PendingNotification,
  StoredEvent,
  UniqueClaim,
  UserListing,
} from "../../ports/storage.js";

interface ClaimRow {
  readonly kind: ClaimKind;
  readonly scope: string;
  readonly key: string;
}

interface EventRow {
  readonly type: string;
  readonly aggregate_id: string;
  readonly org_id: string;
  readonly sequence: number;
  readonly created_at: string;
  readonly payload: string;
}

interface OutboxRow {
  readonly id: string;
  readonly kind: NotificationKind;
  readonly user_id: string;
  readonly org_id: string;
  readonly recipient: string;
  readonly code: string;
  readonly link: string;
  readonly locale: string;
  readonly display_name: string;
  readonly username: string;
  readonly created_at: string;
  readonly expires_at: string;
  readonly attempts: number;
  readonly state: DeliveryState;
  readonly leased_until: string | null;
  readonly retry_at: string | null;
  readonly delivered_at: string | null;
  readonly failed_at: string | null;
  readonly last_error: string | null;
}

interface OrganizationRow {
  readonly id: string;
  readonly policy: string | null;
  readonly domains: string;
}

interface ListingRow {
  readonly user_id: string;
  readonly org_id: string;
  readonly sequence: number;
  readonly created_at: string;
  readonly changed_at: string;
  readonly state: UserListing["state"];
  readonly username: string;
  readonly given_name: string;
  readonly family_name: string;
  readonly nick_name: string;
  readonly display_name: string;
  readonly preferred_language: string;
  readonly gender: string;
  readonly email: string;
  readonly email_verified: boolean;
  readonly phone: string | null;
  readonly phone_verified: boolean;
  readonly password_change_required: boolean;
  readonly password_changed_at: string | null;
  readonly username_folded: string;
  readonly email_folded: string;
  readonly display_name_folded: string;
  readonly given_name_folded: string;
  readonly family_name_folded: string;
  readonly nick_name_folded: string;
}

interface IdentityProviderRow {
  readonly id: string;
  readonly org_id: string | null;
}

export function toClaim(row: unknown): UniqueClaim {
  const { kind, scope, key } = row as ClaimRow;
  return { kind, scope, key };
}

export function toEvent(row: unknown): StoredEvent {
  const event = row as EventRow;
  return {
    type: event.type,
    aggregateId: event.aggregate_id,
    orgId: event.org_id,
    sequence: event.sequence,
    createdAt: event.created_at,
    payload: JSON.parse(event.payload) as JsonObject,
  };
}

export function toPending(row: unknown): PendingNotification {
  const outbox = row as OutboxRow;
  return {
    id: outbox.id,
    kind: outbox.kind,
    userId: outbox.user_id,
    orgId: outbox.org_id,
    recipient: outbox.recipient,
    code: outbox.code,
    link: outbox.link,
    locale: outbox.locale,
    displayName: outbox.display_name,
    username: outbox.username,
    createdAt: outbox.created_at,
    expiresAt: outbox.expires_at,
    attempts: outbox.attempts,
  };
}

/** `{ [name]: value }` when the column is set, `{}` when it is NULL (optional members stay absent). */
function optional<K extends string>(name: K, value: string | null): { readonly [P in K]?: string } {
  return value === null ? {} : ({ [name]: value } as { readonly [P in K]: string });
}

export function toRecord(row: unknown): NotificationRecord {
  const outbox = row as OutboxRow;
  return {
    ...toPending(row),
    state: outbox.state,
    ...optional("leasedUntil", outbox.leased_until),
    ...optional("retryAt", outbox.retry_at),
    ...optional("deliveredAt", outbox.delivered_at),
    ...optional("failedAt", outbox.failed_at),
    ...optional("lastError", outbox.last_error),
  };
}

export function toListing(row: unknown): UserListing {
  const listing = row as ListingRow;
  return {
    userId: listing.user_id,
    orgId: listing.org_id,
    sequence: listing.sequence,
    createdAt: listing.created_at,
    changedAt: listing.changed_at,
    state: listing.state,
    username: listing.username,
    givenName: listing.given_name,
    familyName: listing.family_name,
    nickName: listing.nick_name,
    displayName: listing.display_name,
    preferredLanguage: listing.preferred_language,
    gender: listing.gender,
    email: listing.email,
    emailVerified: listing.email_verified,
    ...optional("phone", listing.phone),
    phoneVerified: listing.phone_verified,
    passwordChangeRequired: listing.password_change_required,
    ...optional("passwordChangedAt", listing.password_changed_at),
    usernameFolded: listing.username_folded,
    emailFolded: listing.email_folded,
    displayNameFolded: listing.display_name_folded,
    givenNameFolded: listing.given_name_folded,
    familyNameFolded: listing.family_name_folded,
    nickNameFolded: listing.nick_name_folded,
  };
}

export function toOrganization(row: unknown): Organization {
  const organization = row as OrganizationRow;
  const domains = JSON.parse(organization.domains) as OrganizationDomain[];
  return organization.policy === null
    ? { id: organization.id, domains }
    : { id: organization.id, domains, policy: JSON.parse(organization.policy) as OrganizationPolicy };
}

export function toIdentityProvider(row: unknown): IdentityProvider {
  const provider = row as IdentityProviderRow;
  return provider.org_id === null ? { id: provider.id } : { id: provider.id, orgId: provider.org_id };
}
