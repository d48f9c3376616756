import type { Result } from "neverthrow";
import type { Telemetry, TelemetrySpan } from "../../ports/telemetry.js";
import { ERROR_DETAIL_TYPE, type ErrorBody } from "../../shared/error-body.js";

/**
 * Codes that are the server's fault, and so span errors (as OpenTelemetry's gRPC conventions
 * say for servers); a refusal of the request (3, 5, 6, ...) is an answer, not a failure.
 */
const SERVER_FAULTS: ReadonlySet<number> = new Set([2, 4, 12, 13, 14, 15]);

/** The error's stable id (`USER-unv4`): what failed, without any of the request's data. */
function errorId(body: ErrorBody): string {
  const detail = body.details.find((candidate) => candidate["@type"] === ERROR_DETAIL_TYPE);
  return detail !== undefined && "id" in detail ? detail.id : `code ${body.code}`;
}

/** The organization an operation acts in, once known. */
export function organizationAttributes(organizationId: string): Readonly<Record<string, string>> {
  return { "human_users.organization.id": organizationId };
}

/**
 * An operation in a span named after it, with its answer's code, and counted by that code.
 * Without telemetry, `work` alone.
 */
export function traceOperation<T>(
  telemetry: Telemetry | undefined,
  name: string,
  work: (span?: TelemetrySpan) => Promise<Result<T, ErrorBody>>,
): Promise<Result<T, ErrorBody>> {
  if (telemetry === undefined) return work();
  return telemetry.span(name, { "human_users.operation": name }, async (span) => {
    const answer = await work(span);
    const code = answer.isOk() ? 0 : answer.error.code;
    span.setAttributes({ "human_users.code": code });
    if (answer.isErr() && SERVER_FAULTS.has(code)) span.fail(errorId(answer.error));
    telemetry.count("human_users.operations", 1, { "human_users.operation": name, "human_users.code": code });
    return answer;
  });
}
