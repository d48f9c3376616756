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

/** What a bulk import's batch span and counter see of an outcome: its code (0 when not refused) and what it was. */
export interface BatchRowAnswer {
  readonly outcome: "imported" | "already_there" | "would_import" | "failed";
  readonly error?: ErrorBody;
}

function batchCode(row: BatchRowAnswer): number {
  return row.error?.code ?? 0;
}

/**
 * A bulk import's batch in a span named after the operation (a stream that may run for hours is no
 * one span), with the batch's rows counted by outcome; each row is counted in
 * `human_users.operations` by its code and outcome. Without telemetry, `work` alone.
 */
export function traceBatch<T>(telemetry: Telemetry | undefined, name: string, work: () => Promise<readonly T[]>, answerOf: (row: T) => BatchRowAnswer): Promise<readonly T[]> {
  if (telemetry === undefined) return work();
  return telemetry.span(name, { "human_users.operation": name }, async (span) => {
    const rows = await work();
    const counts = { imported: 0, already_there: 0, would_import: 0, failed: 0 };
    let fault: ErrorBody | undefined;
    const byAnswer = new Map<string, { code: number; outcome: BatchRowAnswer["outcome"]; rows: number }>();
    for (const row of rows) {
      const answer = answerOf(row);
      counts[answer.outcome] += 1;
      const code = batchCode(answer);
      if (answer.error !== undefined && SERVER_FAULTS.has(code)) fault ??= answer.error;
      const key = `${code} ${answer.outcome}`;
      const counted = byAnswer.get(key);
      if (counted === undefined) byAnswer.set(key, { code, outcome: answer.outcome, rows: 1 });
      else counted.rows += 1;
    }
    span.setAttributes({
      "human_users.rows": rows.length,
      "human_users.rows.imported": counts.imported,
      "human_users.rows.already_there": counts.already_there,
      "human_users.rows.would_import": counts.would_import,
      "human_users.rows.failed": counts.failed,
    });
    if (fault !== undefined) span.fail(errorId(fault));
    for (const { code, outcome, rows: count } of byAnswer.values()) {
      telemetry.count("human_users.operations", count, { "human_users.operation": name, "human_users.code": code, "human_users.outcome": outcome });
    }
    return rows;
  });
}
