import type { DeliverySettings, HumanUsersConfig } from "../ports/config.js";

/** Every delivery setting, the configured ones over the defaults. */
export type ResolvedDeliverySettings = Required<DeliverySettings>;

/** The delivery settings used for members `config.delivery` leaves out. */
export const defaultDeliverySettings: ResolvedDeliverySettings = {
  maxAttempts: 10,
  initialBackoffSeconds: 30,
  maxBackoffSeconds: 3600,
  leaseSeconds: 300,
  batchSize: 50,
  concurrency: 4,
};

/** A whole number >= `minimum`, or the default when the host gave nothing usable. */
function wholeAtLeast(value: number | undefined, minimum: number, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= minimum ? Math.floor(value) : fallback;
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The host's delivery settings over the defaults; a nonsensical value (0 attempts, NaN) keeps the default. */
export function resolveDeliverySettings(config: HumanUsersConfig | undefined): ResolvedDeliverySettings {
  const given = config?.delivery ?? {};
  const defaults = defaultDeliverySettings;
  const initialBackoffSeconds = positive(given.initialBackoffSeconds, defaults.initialBackoffSeconds);
  return {
    maxAttempts: wholeAtLeast(given.maxAttempts, 1, defaults.maxAttempts),
    initialBackoffSeconds,
    maxBackoffSeconds: Math.max(initialBackoffSeconds, positive(given.maxBackoffSeconds, defaults.maxBackoffSeconds)),
    leaseSeconds: positive(given.leaseSeconds, defaults.leaseSeconds),
    batchSize: wholeAtLeast(given.batchSize, 1, defaults.batchSize),
    concurrency: wholeAtLeast(given.concurrency, 1, defaults.concurrency),
  };
}
