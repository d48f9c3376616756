import { deliverWrittenNotifications, type DeliveryPorts, type Leased } from "./deliver.js";
import { resolveDeliverySettings } from "./settings.js";

/** True when what an append writes is delivered by the operation right after it (not by the host or the worker). */
function deliversAfterWrite(ports: DeliveryPorts): boolean {
  return (ports.config?.immediateDelivery ?? "await") !== "off" && ports.storage.deliverAfterCommit !== true;
}

/**
 * Until when an append leases its notifications to this process (`leaseNotificationsUntil`): the
 * configured lease from `now`, when the operation delivers them right after the write; otherwise
 * undefined, and they are written free for the host or the worker.
 */
export function leaseForWrite(ports: DeliveryPorts, now: Date): Date | undefined {
  return deliversAfterWrite(ports) ? new Date(now.getTime() + resolveDeliverySettings(ports.config).leaseSeconds * 1000) : undefined;
}

/**
 * Delivery of what an append just wrote, as `config.immediateDelivery` says: awaited (default), in
 * the background, or left to the worker. Never rejects: a failed delivery stays in the outbox.
 * Nothing is sent from a store bound to the host's transaction: the write may still be rolled back.
 * `leased`: the notifications the append leased to this process and the lease's end (from
 * `leaseForWrite`), delivered without a lease call.
 */
export function deliverAfterWrite(ports: DeliveryPorts, notificationIds: readonly string[], leased?: Leased): Promise<unknown> {
  if (notificationIds.length === 0 || !deliversAfterWrite(ports)) return Promise.resolve();
  const background = ports.config?.immediateDelivery === "background";
  // Awaited, the records may go with other callers' (see beginCommand); in the background, the round waits for its own.
  const delivery = deliverWrittenNotifications(ports, notificationIds, leased, !background);
  return background ? Promise.resolve() : delivery;
}
