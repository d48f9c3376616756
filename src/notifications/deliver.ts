import { checkedClock } from "../shared/checked-clock.js";
import { checkedRandom } from "../shared/checked-random.js";
import { configurationProblems } from "../core/config-check.js";
import { loggerOf, safeLogger } from "../shared/host-calls.js";
import { safeTelemetry } from "../shared/safe-telemetry.js";
import { warnHostOnce, type HostWarning } from "../shared/host-warnings.js";
import { LONGEST_TIMER_MS, settleWithin } from "../shared/time-limit.js";
import { webCryptoRandom } from "../shared/web-crypto-random.js";
import type { Ports } from "../ports/index.js";
import type { LogFields, Logger } from "../ports/logger.js";
import type { RandomSource } from "../ports/random-source.js";
import type { DeliveryFailure, Outbox, PendingNotification } from "../ports/storage.js";
import type { Telemetry } from "../ports/telemetry.js";
import { retryDelayMs } from "./backoff.js";
import { limiter } from "../shared/limiter.js";
import type { StopSignal } from "../shared/stop-signal.js";
import { renderNotification, type RenderedNotification } from "./render.js";
import { boundedError, describeError, emptyReport, errorText, type DeliveryReport, type FailedDelivery } from "./report.js";
import { resolveDeliverySettings, type ResolvedDeliverySettings } from "./settings.js";
import { deferRecord } from "./pending-records.js";
import { tracedOutbox } from "./traced-outbox.js";

/** The ports delivery needs: storage, mailer and clock, and optionally the others it uses. */
export type DeliveryPorts = Pick<Ports, "storage" | "mailer" | "clock"> &
  Partial<Pick<Ports, "sms" | "logger" | "random" | "config" | "telemetry">>;

/** Which notifications `deliverPendingNotifications` sends. */
export interface DeliverOptions {
  /** Deliver only these notifications (the ones a write just produced). Default: every due one. */
  readonly ids?: readonly string[];
  /**
   * At most this many in this call, rounded down (2.5 is 2, below 1 is none). Default: `ids.length`,
   * else the configured batch size (50). A limit that is no finite number is refused (a report
   * with one `configuration` error, nothing sent).
   */
  readonly limit?: number;
  /**
   * Anything with `aborted`, such as an `AbortSignal`: once aborted, no further notifications are
   * leased; the sends in flight finish (each within its time limit) and are recorded.
   */
  readonly signal?: StopSignal;
}

/** Whether the caller asked to stop; a signal that throws when read stops too. */
function stopAsked(options: DeliverOptions): boolean {
  try {
    return options.signal?.aborted === true;
  } catch {
    return true;
  }
}

/**
 * The outcome of one hand-over; `permanent` failures are not retried, and a `setup` failure is one
 * the host must act on (it is warned once).
 */
type Attempt =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly error: string;
      readonly permanent: boolean;
      readonly setup?: Extract<HostWarning, "mailer-setup" | "sms-sender-missing">;
      /** The sender that failed, when one was called. */
      readonly channel?: RenderedNotification["channel"];
    };

/** The sender for a rendered message, or undefined when no SMS port is configured. */
function senderFor(ports: DeliveryPorts, rendered: RenderedNotification): (() => Promise<void>) | undefined {
  if (rendered.channel === "mail") return () => ports.mailer.send(rendered.message);
  const sms = ports.sms;
  return sms === undefined ? undefined : () => sms.send(rendered.message);
}

/** A send that had not settled when its time was up; it may still complete, so the message may arrive twice. */
class SendTimeoutError extends Error {
  override readonly name = "SendTimeoutError";
}

/**
 * `send`, rejected once `seconds` have passed: a send that never settles must not hold the caller
 * (an operation awaiting its mail, the worker's round) for good. Its timer ends with the send.
 */
function withinTimeLimit(send: () => Promise<void>, seconds: number, name: string): Promise<void> {
  // `then` turns a sender that throws synchronously into a rejection; a limit past the longest
  // timer (for a lease longer still) is held at it, or the timer would fire at once.
  const ms = Math.min(seconds * 1000, LONGEST_TIMER_MS);
  return settleWithin(Promise.resolve().then(send), ms, () => new SendTimeoutError(`${name} did not settle within ${seconds} s`));
}

async function handOver(ports: DeliveryPorts, rendered: RenderedNotification, sendTimeoutSeconds: number): Promise<Attempt> {
  const send = senderFor(ports, rendered);
  if (send === undefined) {
    // Not dropped: the SMS port may be configured again before the attempts run out.
    return { ok: false, error: "no SMS sender configured (ports.sms): the phone code cannot be sent", permanent: false, setup: "sms-sender-missing" };
  }
  try {
    const name = rendered.channel === "mail" ? "mailer.send" : "sms.send";
    const limited = () => withinTimeLimit(send, sendTimeoutSeconds, name);
    const telemetry = ports.telemetry;
    await (telemetry === undefined ? limited() : telemetry.span(name, {}, limited));
    return { ok: true };
  } catch (cause) {
    // Whole: the code and link are taken out before it is cut (a cut inside the code would leave part of it).
    const error = errorText(cause);
    if (isErrorNamed(cause, "MailerSetupError")) return { ok: false, error, permanent: false, setup: "mailer-setup" };
    return { ok: false, error, permanent: isErrorNamed(cause, "PermanentDeliveryError"), channel: rendered.channel };
  }
}

/** By name too: a second copy of the package (ESM beside CJS) has its own classes. */
function isErrorNamed(cause: unknown, name: "MailerSetupError" | "PermanentDeliveryError"): boolean {
  try {
    return cause instanceof Error && cause.name === name;
  } catch {
    return false;
  }
}

/** Not async: a message that cannot be made is answered without a promise, and a hand-over's promise is passed on as it is. */
function attemptDelivery(round: Round, notification: PendingNotification, now: Date): Attempt | Promise<Attempt> {
  if (Date.parse(notification.expiresAt) <= now.getTime()) {
    return { ok: false, error: "the code expired before it could be delivered", permanent: true };
  }
  const rendered = renderNotification(notification, round.ports.config?.messages);
  if (rendered.isErr()) return { ok: false, error: rendered.error, permanent: true };
  return handOver(round.ports, rendered.value, round.settings.sendTimeoutSeconds);
}

interface Round {
  readonly ports: DeliveryPorts;
  /** The host's clock, each time checked: no valid time, or one past year 9999, ends the round rather than giving up mail as expired. */
  readonly clock: DeliveryPorts["clock"];
  /** The store's outbox, its calls traced when there is telemetry. */
  readonly outbox: Outbox;
  readonly telemetry?: Telemetry;
  readonly settings: ResolvedDeliverySettings;
  readonly logger: Logger;
  readonly random: RandomSource;
  readonly report: DeliveryReport;
  /** Records of delivered messages may be left to the last command in flight (see `deferRecord`). */
  readonly defersRecords: boolean;
}

async function recordDelivered(round: Round, notification: PendingNotification): Promise<void> {
  round.report.delivered.push(notification.id);
  try {
    await round.outbox.markDelivered(notification.id, round.clock.now());
  } catch (cause) {
    const error = describeError(cause);
    round.report.errors.push({ stage: "markDelivered", id: notification.id, error });
    round.logger.error({ notificationId: notification.id, error }, "human-users: delivered notification could not be marked delivered; it may be sent again");
  }
}

/** What the logger gets about a failure: never the code or the link, which carries the code. */
function logFields(failed: FailedDelivery): LogFields {
  const { id, ...rest } = failed;
  return { notificationId: id, ...rest };
}

/**
 * Records a failed attempt; true when the notification is now dead. The report carries the lease
 * end: when the send outlived the lease and another process has leased the notification since, the
 * store ignores it (it must not free or kill a notification that process is sending).
 */
/**
 * Records a failed attempt, then reports it: retrying or dead, or left when the store recorded
 * nothing because the notification is no longer this process's (its lease ended and another
 * process took it, or that process delivered it): that process reports its fate, not this one.
 */
async function recordFailed(round: Round, leased: Leased, notification: PendingNotification, error: string, permanent: boolean, at: Date): Promise<"retrying" | "dead" | "left"> {
  const attempts = notification.attempts + 1;
  const failed: FailedDelivery = {
    id: notification.id,
    kind: notification.kind,
    userId: notification.userId,
    orgId: notification.orgId,
    attempts,
    error,
  };
  const dead = permanent || attempts >= round.settings.maxAttempts;
  const retryAt = dead ? undefined : new Date(at.getTime() + retryDelayMs(attempts, round.settings, round.random));
  const leasedUntil = leased.until;
  const failure: DeliveryFailure = retryAt === undefined ? { at, error, leasedUntil } : { at, error, retryAt, leasedUntil };
  let recorded: boolean | void = true;
  try {
    recorded = await round.outbox.markFailed(notification.id, failure);
  } catch (cause) {
    const storeError = describeError(cause);
    round.report.errors.push({ stage: "markFailed", id: notification.id, error: storeError });
    round.logger.error({ notificationId: notification.id, error: storeError }, "human-users: failed notification could not be marked failed; it is retried when its lease ends");
  }
  if (recorded === false) {
    round.logger.warn(logFields(failed), "human-users: a failed send was not recorded: the notification is no longer this process's to record (its lease ended and another process took it, or a newer code withdrew it)");
    return "left";
  }
  if (retryAt === undefined) {
    round.report.dead.push(failed);
    round.logger.error(logFields(failed), "human-users: notification is dead, no more delivery attempts");
    warnHostOnce(round.ports.logger, "notification-dead", logFields(failed), DEAD_WARNING);
    return "dead";
  }
  round.report.retrying.push({ ...failed, retryAt: retryAt.toISOString() });
  round.logger.warn({ ...logFields(failed), retryAt: retryAt.toISOString() }, "human-users: notification delivery failed, will retry");
  return "retrying";
}

type DeliveryOutcome = "delivered" | "retrying" | "dead" | "left";

// Warned once per logger; every further case still reaches the host's logger, and the report.
const SETUP_WARNINGS = {
  "mailer-setup": "human-users: the mailer cannot send any mail until its set-up is fixed; notifications stay pending and are retried (warned once)",
  "sms-sender-missing": "human-users: phone codes are waiting for an SMS sender (ports.sms); they stay pending and are retried (warned once)",
} as const;
// By the sender that failed: a phone code's failure is the SMS sender's, not the mailer's.
const DELIVERY_FAILING_WARNINGS = {
  mail: [
    "delivery-failing",
    "human-users: a notification could not be delivered and will be retried; check the mailer (its server, its sign-in) if this goes on; pass ports.logger to see every attempt (warned once)",
  ],
  sms: [
    "sms-delivery-failing",
    "human-users: a phone code could not be sent and will be retried; check the SMS sender (ports.sms) if this goes on; pass ports.logger to see every attempt (warned once)",
  ],
} as const;
const DEAD_WARNING = "human-users: a notification is dead: its code will not reach the user; see the delivery report or the logger's errors for more (warned once)";

/**
 * Whether a send started at `at` ends, or is given up at its time limit, before the lease does:
 * after the lease another process may lease the message and send it too. A round leases right
 * before it sends; an operation's write leased its messages when it decided, and a slow write or
 * the messages sent before this one may have used most of that lease up.
 */
function endsWithinLease(round: Round, leased: Leased, at: Date): boolean {
  return at.getTime() + round.settings.sendTimeoutSeconds * 1000 <= leased.until.getTime();
}

async function deliverOne(round: Round, leased: Leased, notification: PendingNotification): Promise<DeliveryOutcome> {
  const startedAt = round.clock.now();
  if (!endsWithinLease(round, leased, startedAt)) {
    // Left as it is: pending, leased to this process until the lease ends, then a round's.
    round.logger.warn({ notificationId: notification.id, leasedUntil: leased.until.toISOString() }, "human-users: notification not sent now: too little of its lease is left for a send within its time limit; a round sends it once the lease ends");
    return "left";
  }
  const attempt = await attemptDelivery(round, notification, startedAt);
  if (attempt.ok) {
    const recorded = recordDelivered(round, notification);
    if (!round.defersRecords || !deferRecord(round.ports.storage, recorded)) await recorded;
    return "delivered";
  }
  const error = withoutSecrets(attempt.error, notification);
  if (attempt.setup !== undefined) warnHostOnce(round.ports.logger, attempt.setup, { notificationId: notification.id, error }, SETUP_WARNINGS[attempt.setup]);
  const outcome = await recordFailed(round, leased, notification, error, attempt.permanent, round.clock.now());
  // Without a logger, a mailer that cannot reach its server would be silent until its mails die,
  // hours later (a set-up failure has a warning of its own).
  if (outcome !== "dead" && attempt.setup === undefined && attempt.channel !== undefined && round.ports.logger === undefined) {
    const [cause, message] = DELIVERY_FAILING_WARNINGS[attempt.channel];
    warnHostOnce(undefined, cause, { notificationId: notification.id, error }, message);
  }
  return outcome;
}

/**
 * A failure's text without the message's link and code, then cut to its bounded length: a mail
 * server may quote what it refused (a content filter, the URL it blocked, lower-cased as some
 * write it), and the text goes to the logger, the report and the record, which never hold a code.
 * The code is taken out in any case, wherever it stands.
 */
function withoutSecrets(error: string, notification: PendingNotification): string {
  let text = error;
  if (notification.link !== "") text = text.replaceAll(notification.link, "[link]");
  if (notification.code !== "") {
    // As written, and as a link carries it (URL-encoded, for an alphabet with reserved characters).
    for (const spelling of new Set([notification.code, encodeURIComponent(notification.code)])) {
      text = text.replace(new RegExp(escapeRegExp(spelling), "giu"), "[code]");
    }
  }
  return boundedError(text);
}

/** `text` as a pattern matching itself (the syntax characters escaped, as the `u` flag allows). */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/** `deliverOne` in a span, its outcome on the span and in the counters; a delivered or dead one leaves the backlog. */
function deliverOneTraced(round: Round, telemetry: Telemetry, leased: Leased, notification: PendingNotification): Promise<DeliveryOutcome> {
  const kind = { "human_users.notification.kind": notification.kind };
  return telemetry.span("notification.deliver", kind, async (span) => {
    const outcome = await deliverOne(round, leased, notification);
    const attributes = { ...kind, "human_users.outcome": outcome };
    span.setAttributes(attributes);
    // Not tried, or tried under a lease another process holds now (which counts its own): no
    // delivery to count, and the message is still in the backlog.
    if (outcome === "left") return outcome;
    telemetry.count("human_users.deliveries", 1, attributes);
    if (outcome !== "retrying") telemetry.count("human_users.outbox.backlog", -1, {});
    return outcome;
  });
}

async function lease(round: Round, options: DeliverOptions): Promise<Leased> {
  const now = round.clock.now();
  const limit = options.limit ?? options.ids?.length ?? round.settings.batchSize;
  const leaseUntil = new Date(now.getTime() + round.settings.leaseSeconds * 1000);
  const request = options.ids === undefined ? { now, limit, leaseUntil } : { now, limit, leaseUntil, ids: options.ids };
  try {
    return { notifications: await round.outbox.lease(request), until: leaseUntil };
  } catch (cause) {
    const error = describeError(cause);
    round.report.errors.push({ stage: "lease", error });
    round.logger.error({ error }, "human-users: notifications could not be leased for delivery");
    return { notifications: [], until: leaseUntil };
  }
}

/** Notifications leased to this process, and the end of their lease (what its failure reports carry). */
export interface Leased {
  readonly notifications: readonly PendingNotification[];
  readonly until: Date;
}

/** A round's work: delivering what it leases, or what the write leased to it already. */
type Delivering = (round: Round) => Promise<void>;

/**
 * Leases and delivers up to the round's limit, `concurrency` notifications a lease, each lease
 * right before its notifications are sent. A batch leased whole would hold the later ones while
 * the first go out, and a new code written meanwhile makes its predecessor's message dead in the
 * outbox, not in a batch already leased: that message went out after its successor.
 */
function inSlices(options: DeliverOptions): Delivering {
  return async (round) => {
    let left = options.limit ?? options.ids?.length ?? round.settings.batchSize;
    while (left > 0 && !stopAsked(options)) {
      const size = Math.min(left, round.settings.concurrency);
      const leased = await lease(round, { ...options, limit: size });
      await deliverSet(round, leased);
      left -= leased.notifications.length;
      // None left that is due, or the lease failed (reported once).
      if (leased.notifications.length < size) break;
    }
  };
}

/** Delivers the leased notifications, `concurrency` at a time. */
async function deliverSet(round: Round, leased: Leased): Promise<void> {
  const telemetry = round.telemetry;
  const only = leased.notifications.length === 1 ? leased.notifications[0] : undefined;
  if (only !== undefined) {
    // A write's one notification (the usual case) needs no lanes: the limiter would start it at
    // once, and its failure ends the round the same way.
    await (telemetry === undefined ? deliverOne(round, leased, only) : deliverOneTraced(round, telemetry, leased, only));
    return;
  }
  const lanes = limiter(round.settings.concurrency);
  const deliver =
    telemetry === undefined
      ? (notification: PendingNotification) => deliverOne(round, leased, notification)
      : (notification: PendingNotification) => deliverOneTraced(round, telemetry, leased, notification);
  await Promise.all(leased.notifications.map((notification) => lanes.run(() => deliver(notification))));
}

/**
 * Hands due notifications from the outbox to the mailer (or the SMS sender for phone codes) and
 * records each outcome: delivered, failed with a retry time (exponential backoff with jitter), or
 * dead once the attempts are used up. Never rejects: failures of the store, the mailer or the
 * logger end up in the report (and the logger).
 */
export function deliverPendingNotifications(ports: DeliveryPorts, options: DeliverOptions = {}): Promise<DeliveryReport> {
  // null, as JavaScript callers write "none", is no limit given.
  const limit = (options.limit as number | null | undefined) ?? undefined;
  if (limit !== undefined && (typeof limit !== "number" || !Number.isFinite(limit))) {
    return Promise.resolve({ ...emptyReport(), errors: [{ stage: "configuration", error: "invalid options: limit must be a finite number" }] });
  }
  // Whole, so that "at most" holds on every store (a SQL LIMIT refuses 2.5, an array slice rounds it up).
  const whole = limit === undefined ? undefined : Math.max(0, Math.floor(limit));
  if (options.ids?.length === 0 || whole === 0) return Promise.resolve(emptyReport());
  const refusal = configurationRefusal(ports);
  if (refusal !== undefined) return Promise.resolve(refusal);
  return deliverLeased(ports, inSlices(whole === undefined ? options : { ...options, limit: whole }), false);
}

/**
 * The ports checked as the operations check them (but for the keys: delivery makes no code), so
 * that a setting it cannot honour (`delivery.maxAttempts: 0`, a misspelled name) is named instead
 * of replaced by a default. A report with the problems as its one error, sending nothing; undefined
 * when delivery can run. A write's own delivery needs no such check: its operation passed it.
 */
function configurationRefusal(ports: DeliveryPorts): DeliveryReport | undefined {
  const error = deliveryVerdict(ports);
  return error === undefined ? undefined : { ...emptyReport(), errors: [{ stage: "configuration", error }] };
}

/** Each ports object's verdict, made (and a refusal logged) once, as the operations keep theirs: a worker asks every round. */
const verdicts = new WeakMap<object, string | undefined>();

/** Why delivery cannot run with `ports` (the problems as one text), or undefined. */
function deliveryVerdict(ports: DeliveryPorts): string | undefined {
  const cacheable = typeof ports === "object" && ports !== null;
  if (cacheable && verdicts.has(ports)) return verdicts.get(ports);
  const problems = configurationProblems(ports, { makesCodes: false });
  const error = problems.length === 0 ? undefined : `invalid configuration: ${problems.join("; ")}`;
  if (cacheable) verdicts.set(ports, error);
  // A logger that cannot be read is one of the problems already.
  if (error !== undefined) safeLogger(loggerOf(ports)).error({ error }, "human-users: notifications are not delivered with these ports: the configuration cannot be used (logged once per ports object)");
  return error;
}

/**
 * Delivers what an operation's append just wrote: the notifications it leased to this process
 * (`leased.until`: the append's `leaseNotificationsUntil`) without leasing them again, else the
 * ones `ids` names. With `defersRecords`, a delivered one's record may be left to the last
 * command in flight on the store (`deferRecord`); otherwise as `deliverPendingNotifications`.
 */
export function deliverWrittenNotifications(ports: DeliveryPorts, ids: readonly string[], leased: Leased | undefined, defersRecords: boolean): Promise<DeliveryReport> {
  if (leased === undefined) return ids.length === 0 ? Promise.resolve(emptyReport()) : deliverLeased(ports, inSlices({ ids }), defersRecords);
  if (leased.notifications.length === 0) return Promise.resolve(emptyReport());
  return deliverLeased(ports, (round) => deliverSet(round, leased), defersRecords);
}

async function deliverLeased(given: DeliveryPorts, delivering: Delivering, defersRecords: boolean): Promise<DeliveryReport> {
  const report = emptyReport();
  let logger = safeLogger(undefined);
  try {
    // Read inside: a logger (or ports) that cannot be read is a report's error, never a rejection.
    logger = safeLogger(given.logger);
    // Tracing that fails must not fail a delivery, nor count a mail that went out as not sent.
    const telemetry = given.telemetry === undefined ? undefined : safeTelemetry(given.telemetry, given.logger);
    const ports = telemetry === undefined ? given : { ...given, telemetry };
    const clock = checkedClock(ports.clock);
    const random = ports.random === undefined ? webCryptoRandom : checkedRandom(ports.random);
    if (telemetry === undefined) {
      await delivering({ ports, clock, outbox: ports.storage.outbox, settings: resolveDeliverySettings(ports.config), logger, random, report, defersRecords });
    } else {
      await telemetry.span("deliverPendingNotifications", {}, async (span) => {
        const outbox = tracedOutbox(ports.storage.outbox, telemetry);
        const round = { ports, clock, outbox, telemetry, settings: resolveDeliverySettings(ports.config), logger, random, report, defersRecords };
        await delivering(round);
        span.setAttributes({ "human_users.delivered": report.delivered.length, "human_users.retrying": report.retrying.length, "human_users.dead": report.dead.length });
      });
    }
  } catch (cause) {
    // Only a port breaking its own promise (a clock or random source that throws) lands here.
    const error = describeError(cause);
    report.errors.push({ stage: "internal", error });
    logger.error({ error }, "human-users: notification delivery stopped by an internal error");
  }
  return report;
}
