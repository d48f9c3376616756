import type { ChangeDetails } from "../responses.js";
import type { AppendFacts } from "./command.js";

/** The `details` every change to an existing user answers with. */
export function changeDetails(facts: AppendFacts): ChangeDetails {
  return { sequence: facts.sequence, changeDate: facts.date, resourceOwner: facts.resourceOwner };
}
