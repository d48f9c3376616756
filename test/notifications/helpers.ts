import { renderNotification } from "../../src/notifications/render.js";
import type { MessageTemplates } from "../../src/ports/config.js";
import type { MailMessage } from "../../src/ports/mailer.js";
import type { Clock } from "../../src/ports/clock.js";
import type { Logger } from "../../src/ports/logger.js";
import type { RandomSource } from "../../src/ports/random-source.js";
import type { OutboxNotification, UserAppend } from "../../src/ports/storage.js";
import { listingOf } from "../../src/testing/storage-fixtures.js";

export const start = new Date("2025-03-01T10:00:00.000Z");

/** A clock the test moves by hand. */
export interface ManualClock extends Clock {
  set(date: Date): void;
  advance(ms: number): void;
}

export function manualClock(at: Date = start): ManualClock {
  let current = at;
  return {
    now: () => current,
    set: (date) => {
      current = date;
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}

/** Zero bytes: the jitter factor is 0, so every retry comes after exactly half the nominal delay. */
export const zeroRandom: RandomSource = { fill: (bytes) => bytes.fill(0) };

export interface LogEntry {
  readonly level: "warn" | "error";
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>> | undefined;
}

export function recordingLogger(): Logger & { readonly entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  return {
    entries,
    warn: (fields, message) => entries.push({ level: "warn", message, fields }),
    error: (fields, message) => entries.push({ level: "error", message, fields }),
  };
}

export function emailNotification(overrides: Partial<OutboxNotification> = {}): OutboxNotification {
  return {
    id: "n-1",
    kind: "email.verification",
    userId: "u-1",
    orgId: "org-1",
    recipient: "ada@example.com",
    code: "K7Q2ZD",
    link: "https://app.example.com/verify?userID=u-1&code=K7Q2ZD",
    locale: "en",
    displayName: "Ada Lovelace",
    username: "ada",
    createdAt: "2025-03-01T10:00:00Z",
    expiresAt: "2025-03-01T11:00:00Z",
    ...overrides,
  };
}

export function phoneNotification(overrides: Partial<OutboxNotification> = {}): OutboxNotification {
  return emailNotification({ id: "n-phone", kind: "phone.verification", recipient: "+41791234567", code: "ZX81AB", link: "", ...overrides });
}

/** A user write carrying only notifications: enough for the outbox, which is all delivery reads. */
export function writeOf(notifications: readonly OutboxNotification[], userId = "u-1"): UserAppend {
  return {
    userId,
    orgId: "org-1",
    expectedSequence: 0,
    events: [
      {
        type: "user.human.added",
        aggregateId: userId,
        orgId: "org-1",
        sequence: 1,
        createdAt: "2025-03-01T10:00:00Z",
        payload: {},
      },
    ],
    claims: [{ kind: "user_id", scope: "", key: userId }],
    notifications,
    listing: listingOf(userId, "org-1", 1),
  };
}

/** The mail a notification renders to (failing the test when it renders to anything else). */
export function mailOf(notification: OutboxNotification, templates?: MessageTemplates): MailMessage {
  const rendered = renderNotification(notification, templates)._unsafeUnwrap();
  if (rendered.channel !== "mail") throw new Error(`expected a mail, got ${rendered.channel}`);
  return rendered.message;
}
