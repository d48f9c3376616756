import { ResultAsync } from "neverthrow";
import type { Command } from "../core/commands/command.js";
import { runQuery, type Query } from "../core/commands/query.js";
import { runCommand } from "../core/commands/runner.js";
import type { OperationContext } from "../core/context.js";
import type { Ports } from "../ports/index.js";
import type { ErrorBody } from "../shared/error-body.js";
import { runtime } from "./runtime.js";

/**
 * A public operation: typed for TypeScript callers, and `unknown` accepted at run time (a parsed
 * JSON body). Resolves to the exact response body or an error body; never throws or rejects.
 */
export interface UserOperation<TRequest, TResponse> {
  (ports: Ports, request: TRequest, context?: OperationContext): ResultAsync<TResponse, ErrorBody>;
  (ports: Ports, request: unknown, context?: OperationContext): ResultAsync<TResponse, ErrorBody>;
}

/** A command as a public operation. */
export function operation<TRequest, TParsed, TResponse>(command: Command<TParsed, TResponse>): UserOperation<TRequest, TResponse> {
  return (ports: Ports, request: unknown, context?: OperationContext) => new ResultAsync(runCommand(ports, request, context, command, runtime));
}

/** A query (a read across users) as a public operation. */
export function queryOperation<TRequest, TParsed, TResponse>(query: Query<TParsed, TResponse>): UserOperation<TRequest, TResponse> {
  return (ports: Ports, request: unknown, context?: OperationContext) => new ResultAsync(runQuery(ports, request, context, query, runtime));
}
