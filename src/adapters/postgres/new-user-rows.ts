// New users' writes as the batch statements take them: one array parameter per column (see
// column-arrays.ts), the events' payloads as one JSON array beside them.
import type { StoredEvent, UniqueClaim, UserAppend, UserListing } from "../../ports/storage.js";
import { arrayLiteral, columnArrays, columnNames, unnestColumns, type ArrayColumn } from "./column-arrays.js";
import { LISTING_ARRAY_COLUMNS } from "./listing-sql.js";

type Notification = UserAppend["notifications"][number];

/** A claim with the user id of the write that takes it. */
export type WriterClaim = UniqueClaim & { readonly writer: string };

const CLAIM_COLUMNS: readonly ArrayColumn<WriterClaim>[] = [
  { member: "kind", type: "text" },
  { member: "scope", type: "text" },
  { member: "key", type: "text" },
  { member: "writer", type: "text" },
];

/** The events' columns but the payload, which travels as JSON (jsonb parses it once, as it stores it). */
const EVENT_COLUMNS: readonly ArrayColumn<StoredEvent>[] = [
  { member: "aggregateId", type: "text" },
  { member: "sequence", type: "integer" },
  { member: "type", type: "text" },
  { member: "orgId", type: "text" },
  { member: "createdAt", type: "timestamptz" },
];

const NOTIFICATION_COLUMNS: readonly ArrayColumn<Notification>[] = [
  { member: "id", type: "text" },
  { member: "kind", type: "text" },
  { member: "userId", type: "text" },
  { member: "orgId", type: "text" },
  { member: "recipient", type: "text" },
  { member: "code", type: "text" },
  { member: "link", type: "text" },
  { member: "locale", type: "text" },
  { member: "displayName", type: "text" },
  { member: "username", type: "text" },
  { member: "createdAt", type: "timestamptz" },
  { member: "expiresAt", type: "timestamptz" },
];

/** How many parameters each part takes. */
export const CLAIM_PARAMS = CLAIM_COLUMNS.length;
export const EVENT_PARAMS = EVENT_COLUMNS.length + 1;
export const NOTIFICATION_PARAMS = NOTIFICATION_COLUMNS.length;
export const LISTING_PARAMS = LISTING_ARRAY_COLUMNS.length;

/** The claims from `$first` on, as rows `c(kind, scope, key, writer)`. */
export function claimRows(first: number): string {
  return `${unnestColumns(CLAIM_COLUMNS, first)} AS c(${columnNames(CLAIM_COLUMNS)})`;
}

/** The events from `$first` on, as rows `e("aggregateId", sequence, type, "orgId", "createdAt", payload)`. */
export function eventRows(first: number): string {
  const columns = EVENT_COLUMNS.map(({ type }, index) => `unnest($${first + index}::${type}[])`);
  return `ROWS FROM (${columns.join(", ")}, jsonb_array_elements($${first + EVENT_COLUMNS.length}::jsonb)) AS e(${columnNames(EVENT_COLUMNS)}, payload)`;
}

/** The notifications from `$first` on, as rows `n(id, kind, "userId", ...)`. */
export function notificationRows(first: number): string {
  return `${unnestColumns(NOTIFICATION_COLUMNS, first)} AS n(${columnNames(NOTIFICATION_COLUMNS)})`;
}

/** The notifications from `$first` on, each with the end of its lease from `$lease` (a timestamptz array, NULL for none): rows `n(id, ..., "leasedUntil")`. */
export function leasedNotificationRows(first: number, lease: number): string {
  const columns = [...NOTIFICATION_COLUMNS.map(({ type }, index) => `$${first + index}::${type}[]`), `$${lease}::timestamptz[]`];
  return `unnest(${columns.join(", ")}) AS n(${columnNames(NOTIFICATION_COLUMNS)}, "leasedUntil")`;
}

/** The listings from `$first` on, as rows `l("userId", "orgId", ...)`. */
export function listingRows(first: number): string {
  return `${unnestColumns(LISTING_ARRAY_COLUMNS, first)} AS l(${columnNames(LISTING_ARRAY_COLUMNS)})`;
}

/** The writes' rows as parameters, part by part in the order of the functions above, and each notification's lease end. */
export interface NewUserParams {
  readonly claims: readonly string[];
  readonly events: readonly string[];
  readonly notifications: readonly string[];
  /** One element per notification: the end of the lease its write asked for, or NULL. */
  readonly leases: string;
  readonly listings: readonly string[];
  readonly notificationCount: number;
}

export function newUserParams(writes: readonly UserAppend[]): NewUserParams {
  const claims: WriterClaim[] = [];
  const events: StoredEvent[] = [];
  const payloads: StoredEvent["payload"][] = [];
  const notifications: Notification[] = [];
  const leases: (string | undefined)[] = [];
  const listings: UserListing[] = [];
  for (const write of writes) {
    for (const { kind, scope, key } of write.claims) claims.push({ kind, scope, key, writer: write.userId });
    for (const event of write.events) {
      events.push(event);
      payloads.push(event.payload);
    }
    const leasedUntil = write.leaseNotificationsUntil?.toISOString();
    for (const notification of write.notifications) {
      notifications.push(notification);
      leases.push(leasedUntil);
    }
    listings.push(write.listing);
  }
  return {
    claims: columnArrays(claims, CLAIM_COLUMNS),
    events: [...columnArrays(events, EVENT_COLUMNS), JSON.stringify(payloads)],
    notifications: columnArrays(notifications, NOTIFICATION_COLUMNS),
    leases: arrayLiteral(leases),
    listings: columnArrays(listings, LISTING_ARRAY_COLUMNS),
    notificationCount: notifications.length,
  };
}
