import { callAndForget } from "../shared/host-calls.js";
import { LONGEST_TIMER_MS } from "../shared/time-limit.js";
import type { StopSignal } from "../shared/stop-signal.js";
import { deliverPendingNotifications, type DeliveryPorts } from "./deliver.js";
import { leasedCount, mergeReports, type DeliveryReport } from "./report.js";
import { resolveDeliverySettings } from "./settings.js";

/** How often `startNotificationWorker` delivers, and who hears each round's report. */
export interface NotificationWorkerOptions {
  /** Pause between rounds, in milliseconds. Default 5000. */
  readonly intervalMs?: number;
  /** Receives each round's report (metrics, alerts on dead notifications); what it throws is ignored. */
  readonly onReport?: (report: DeliveryReport) => void;
}

/** A running notification worker. */
export interface NotificationWorker {
  /**
   * Stops polling; the round in progress leases nothing more and ends once its sends in flight
   * do (each within its time limit); then what is due is delivered one last time, `concurrency`
   * at a time, until one of those fails or times out. Resolves with that final drain's report;
   * calling it again returns the same promise.
   */
  stop(): Promise<DeliveryReport>;
}

/** The worker's pause between rounds when `intervalMs` is not given. */
export const defaultWorkerIntervalMs = 5000;

/** A store handing out the same notifications forever must not trap a round: it ends after this many batches. */
const maxBatchesPerRound = 1000;

/**
 * Delivery calls of `limit` each, one after another while they come back full (more may be due),
 * until `endsAfter` says a call's report ends them, `signal` aborts, or `calls` were made (a store
 * handing out the same notifications forever must not trap the worker). Their reports merged.
 */
async function deliverInCalls(ports: DeliveryPorts, limit: number, calls: number, endsAfter: (report: DeliveryReport) => boolean, signal?: StopSignal): Promise<DeliveryReport> {
  const reports: DeliveryReport[] = [];
  for (let call = 0; call < calls && signal?.aborted !== true; call += 1) {
    const report = await deliverPendingNotifications(ports, signal === undefined ? { limit } : { limit, signal });
    reports.push(report);
    if (leasedCount(report) < limit || endsAfter(report)) break;
  }
  return mergeReports(reports);
}

/**
 * One round: batch after batch, so a backlog drains at once instead of one batch per interval;
 * until `signal` aborts (the worker stops), after which nothing more is leased: with a hung
 * mailer, draining a backlog of 500 would otherwise hold `stop()` for one time limit per
 * `concurrency` of them (two hours by default).
 */
function deliverRound(ports: DeliveryPorts, batchSize: number, signal: StopSignal): Promise<DeliveryReport> {
  return deliverInCalls(ports, batchSize, maxBatchesPerRound, (report) => report.errors.some((error) => error.stage === "lease"), signal);
}

/**
 * What is due, delivered one last time when the worker stops (a process shutting down leaves no
 * mail behind): a few at a time, and only while they go out. With a healthy mailer it empties the
 * outbox; once one send fails or hangs, it stops there, so that a mailer that is down holds
 * `stop()` for one time limit, not one per `concurrency` messages of the backlog.
 */
function finalDrain(ports: DeliveryPorts, batchSize: number, concurrency: number): Promise<DeliveryReport> {
  const failed = (report: DeliveryReport): boolean => report.retrying.length + report.dead.length + report.errors.length > 0;
  return deliverInCalls(ports, concurrency, Math.ceil((maxBatchesPerRound * batchSize) / concurrency), failed);
}

/**
 * Delivers due notifications now and then every `intervalMs` until stopped: for hosts that want
 * retries (and notifications left by a process that stopped after its write) sent without driving
 * `deliverPendingNotifications` themselves. Rounds never overlap; no timer outlives `stop()`.
 */
export function startNotificationWorker(ports: DeliveryPorts, options: NotificationWorkerOptions = {}): NotificationWorker {
  const given = options.intervalMs;
  // A negative or NaN interval would make setTimeout spin; such a value keeps the default. One
  // longer than a timer can hold would be taken as 1 ms by the runtime: it is held at the longest.
  const intervalMs = given !== undefined && Number.isFinite(given) && given >= 0 ? Math.min(given, LONGEST_TIMER_MS) : defaultWorkerIntervalMs;
  const { batchSize, concurrency } = resolveDeliverySettings(ports.config);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<DeliveryReport> | undefined;
  let stopping: Promise<DeliveryReport> | undefined;
  const stopSignal = { aborted: false };

  function publish(report: DeliveryReport): void {
    // The host's callback must not stop delivery, whether it throws or rejects.
    callAndForget(() => options.onReport?.(report));
  }

  async function round(): Promise<DeliveryReport> {
    const report = await deliverRound(ports, batchSize, stopSignal);
    publish(report);
    return report;
  }

  function tick(): void {
    timer = undefined;
    inFlight = round();
    const next = (): void => {
      inFlight = undefined;
      if (stopping === undefined) timer = setTimeout(tick, intervalMs);
    };
    // A round never rejects; were one to, the worker goes on rather than leave a rejection unhandled.
    void inFlight.then(next, next);
  }

  async function drain(): Promise<DeliveryReport> {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    stopSignal.aborted = true;
    await inFlight;
    const report = await finalDrain(ports, batchSize, concurrency);
    publish(report);
    return report;
  }

  tick();
  return {
    stop: () => {
      stopping ??= drain();
      return stopping;
    },
  };
}
