/** What a notification is for: a kind of mail, or a phone code. */
export type NotificationKind = "email.verification" | "email.initialization" | "email.password_reset" | "email.passkey_registration" | "phone.verification";

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
  /** RFC 3339 UTC; answered in any spelling of the same instant, as `StoredEvent.createdAt`. */
  readonly createdAt: string;
  /** RFC 3339 UTC, as `createdAt`. */
  readonly expiresAt: string;
}

export interface PendingNotification extends OutboxNotification {
  /** Delivery attempts made so far. */
  readonly attempts: number;
}

/** Where a notification stands: waiting, sent, or given up. */
export type DeliveryState = "pending" | "delivered" | "dead";

/**
 * A notification as a store keeps it, with its delivery state: what adapters show to tests and
 * to hosts inspecting the outbox. Delivered and dead notifications have `code` and `link` erased ("").
 */
export interface NotificationRecord extends PendingNotification {
  readonly state: DeliveryState;
  /** RFC 3339; hidden from `lease` until then. */
  readonly leasedUntil?: string;
  /** RFC 3339; a failed notification is handed out again from then on. */
  readonly retryAt?: string;
  readonly deliveredAt?: string;
  /** The last failure's time and message. */
  readonly failedAt?: string;
  readonly lastError?: string;
}

/** Which notifications `Outbox.lease` hands out, and until when. */
export interface LeaseRequest {
  readonly now: Date;
  readonly limit: number;
  /** Until when the leased notifications are hidden from other workers. */
  readonly leaseUntil: Date;
  /** Lease only these ids (the ones a write just produced); all due ones when absent. */
  readonly ids?: readonly string[];
}

/** A failed delivery attempt, as `Outbox.markFailed` records it. */
export interface DeliveryFailure {
  readonly at: Date;
  readonly error: string;
  /** When to try again; absent means the notification is dead (no more attempts). */
  readonly retryAt?: Date;
  /**
   * The end of the lease the reporting process was given (`LeaseRequest.leaseUntil`, or the
   * append's `leaseNotificationsUntil`). When present, the failure is recorded only while the
   * notification is still leased until exactly then: a process whose send outlived its lease must
   * not free, count against or kill a notification another process has leased since. Absent: recorded
   * whoever holds the lease (as before this member existed).
   */
  readonly leasedUntil?: Date;
}

/**
 * `lastError` of a notification an append withdrew (`UserAppend.withdrawnNotificationKinds`); the
 * one dead notification whose delivery `markDelivered` still records.
 */
export const WITHDRAWN_NOTIFICATION_ERROR = "its code no longer works";

/**
 * Notifications waiting for delivery. They are written by the user log's `append`, atomically with
 * the events that caused them; the outbox hands them out and records what became of them.
 * Methods reject on failure (`StorageUnavailableError` when unreachable).
 */
export interface Outbox {
  /** Hands out due notifications, in writing order, and hides them from other callers until `leaseUntil`. */
  lease(request: LeaseRequest): Promise<readonly PendingNotification[]>;
  /**
   * Records a delivery and erases the plain code and link. Not fenced by the lease: a message that
   * went out was delivered, whoever reports it, even after its lease was over; also when an append
   * withdrew it while it was being sent (dead, `lastError` "its code no longer works"). A
   * notification that is delivered, or dead otherwise, stays as it is.
   */
  markDelivered(id: string, at: Date): Promise<void>;
  /**
   * Schedules a retry, or with no `retryAt` marks the notification dead (code and link erased).
   * With `failure.leasedUntil`, does nothing unless the notification is still leased until then.
   * Resolves `false` when it recorded nothing (unknown, no longer pending, or leased to another
   * process since), so that delivery does not report as dead a message another process is
   * sending; `true` (or nothing, from a store written before this was asked) when it recorded it.
   */
  markFailed(id: string, failure: DeliveryFailure): Promise<boolean | void>;
}
