export { deliverPendingNotifications, type DeliverOptions, type DeliveryPorts } from "./deliver.js";
export type { DeliveryError, DeliveryErrorStage, DeliveryReport, FailedDelivery, RetryingDelivery } from "./report.js";
export { defaultDeliverySettings, type ResolvedDeliverySettings } from "./settings.js";
export { renderNotification, type RenderedNotification } from "./render.js";
export type { MessageValues } from "./placeholders.js";
export { builtInMessages } from "./templates/index.js";
export {
  defaultWorkerIntervalMs,
  startNotificationWorker,
  type NotificationWorker,
  type NotificationWorkerOptions,
} from "./worker.js";
