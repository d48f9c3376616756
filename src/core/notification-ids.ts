import type { OutboxNotification } from "../ports/outbox.js";

/**
 * The first notification id of an append that a store must refuse (`notification-id-taken`): one
 * a stored notification has (`isStored`), or one an earlier notification of the same append has.
 * Shared by the stores, so that each answers the same id.
 */
export function firstTakenNotificationId(notifications: readonly OutboxNotification[], isStored: (id: string) => boolean): string | undefined {
  for (let index = 0; index < notifications.length; index++) {
    const id = notifications[index]?.id ?? "";
    if (isStored(id)) return id;
    for (let earlier = 0; earlier < index; earlier++) if (notifications[earlier]?.id === id) return id;
  }
  return undefined;
}
