import type { Outbox } from "../ports/outbox.js";
import type { Telemetry } from "../ports/telemetry.js";

const NONE = {};

/** The outbox's calls as child spans of the delivery in progress; counts only, never a recipient. */
export function tracedOutbox(outbox: Outbox, telemetry: Telemetry): Outbox {
  return {
    lease: (request) =>
      telemetry.span("outbox.lease", NONE, async (span) => {
        const leased = await outbox.lease(request);
        span.setAttributes({ "human_users.notifications": leased.length });
        return leased;
      }),
    markDelivered: (id, at) => telemetry.span("outbox.markDelivered", NONE, () => outbox.markDelivered(id, at)),
    markFailed: (id, failure) => telemetry.span("outbox.markFailed", NONE, () => outbox.markFailed(id, failure)),
  };
}

