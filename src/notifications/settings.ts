import type { DeliverySettings, HumanUsersConfig } from "../ports/config.js";
import { defaultLeaseSeconds, MAX_DELIVERY_SECONDS } from "../shared/default-lease.js";

/** Every delivery setting, the configured ones over the defaults. */
export type ResolvedDeliverySettings = Required<DeliverySettings>;

/** The delivery settings used for members `config.delivery` leaves out. */
export const defaultDeliverySettings: ResolvedDeliverySettings = {
  maxAttempts: 10,
  initialBackoffSeconds: 30,
  maxBackoffSeconds: 3600,
  leaseSeconds: defaultLeaseSeconds,
  batchSize: 50,
  concurrency: 4,
  // Half the lease instead when the lease is shorter than twice this (see `sendTimeLimit`).
  sendTimeoutSeconds: 60,
};

/** A whole number >= `minimum`, or the default when the host gave nothing usable. */
function wholeAtLeast(value: number | undefined, minimum: number, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= minimum ? Math.floor(value) : fallback;
}

/** A number of seconds above 0 and at most MAX_DELIVERY_SECONDS, or the default. */
function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 && value <= MAX_DELIVERY_SECONDS ? value : fallback;
}

/**
 * The time limit on one send: it must end before the lease does, or another process may lease the
 * message and send it as well. Without a usable one, 60 s, or half of a lease shorter than 120 s.
 */
function sendTimeLimit(given: number | undefined, leaseSeconds: number): number {
  const fallback = Math.min(defaultDeliverySettings.sendTimeoutSeconds, leaseSeconds / 2);
  return given !== undefined && Number.isFinite(given) && given > 0 && given < leaseSeconds ? given : fallback;
}

/** The host's delivery settings over the defaults; a nonsensical value (0 attempts, NaN) keeps the default. */
export function resolveDeliverySettings(config: HumanUsersConfig | undefined): ResolvedDeliverySettings {
  const given = config?.delivery ?? {};
  const defaults = defaultDeliverySettings;
  const initialBackoffSeconds = positive(given.initialBackoffSeconds, defaults.initialBackoffSeconds);
  const leaseSeconds = positive(given.leaseSeconds, defaults.leaseSeconds);
  return {
    maxAttempts: wholeAtLeast(given.maxAttempts, 1, defaults.maxAttempts),
    initialBackoffSeconds,
    maxBackoffSeconds: Math.max(initialBackoffSeconds, positive(given.maxBackoffSeconds, defaults.maxBackoffSeconds)),
    leaseSeconds,
    batchSize: wholeAtLeast(given.batchSize, 1, defaults.batchSize),
    concurrency: wholeAtLeast(given.concurrency, 1, defaults.concurrency),
    sendTimeoutSeconds: sendTimeLimit(given.sendTimeoutSeconds, leaseSeconds),
  };
}
