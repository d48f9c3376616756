import { deliverPendingNotifications, type DeliveryPorts } from "./deliver.js";

/**
 * Delivery of what an append just wrote, as `config.immediateDelivery` says: awaited (default), in
 * the background, or left to the worker. Never rejects: a failed delivery stays in the outbox.
 * Nothing is sent from a store bound to the host's transaction: the write may still be rolled back.
 */
export function deliverAfterWrite(ports: DeliveryPorts, notificationIds: readonly string[]): Promise<unknown> {
  const mode = ports.config?.immediateDelivery ?? "await";
  if (notificationIds.length === 0 || mode === "off" || ports.storage.deliverAfterCommit === true) return Promise.resolve();
  const delivery = deliverPendingNotifications(ports, { ids: notificationIds });
  return mode === "await" ? delivery : Promise.resolve();
}
