import type { ChangeResponse } from "../responses.js";
import type { AppendFacts } from "./command.js";

/** The answer to a change of an existing user: its details (the last sequence, the time, the organization). */
export function changeResponse(facts: AppendFacts): ChangeResponse {
  return { details: { sequence: facts.sequence, changeDate: facts.date, resourceOwner: facts.resourceOwner } };
}
