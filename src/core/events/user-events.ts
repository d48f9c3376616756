import type { JsonObject } from "../../shared/json.js";
import type { EventType, StoredEvent } from "../../ports/storage.js";

/** An event before it has a place in the user's stream. */
export interface EventDraft {
  readonly type: EventType;
  readonly payload: JsonObject;
}

/** Numbers one user's events 1, 2, 3, ... and stamps them with the write's time. */
export function sequenceEvents(drafts: readonly EventDraft[], userId: string, orgId: string, createdAt: string): StoredEvent[] {
  return drafts.map((draft, index) => ({
    type: draft.type,
    aggregateId: userId,
    orgId,
    sequence: index + 1,
    createdAt,
    payload: draft.payload,
  }));
}
