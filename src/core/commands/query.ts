import { err, type Result } from "neverthrow";
import type { Requester } from "../../ports/authorizer.js";
import type { Ports } from "../../ports/index.js";
import type { ErrorBody, FieldViolation } from "../../shared/error-body.js";
import { contextRefusal, missingRequester } from "../config-check.js";
import type { OperationContext } from "../context.js";
import { invalidRequest, notAnObject } from "../errors/user-errors.js";
import type { CommandRuntime, ResolvedPorts } from "../resolved-ports.js";
import { resolveRequestLimits } from "../validation/request-limits.js";
import type { FieldTree } from "../wire/field-tree.js";
import type { RequestObject } from "./command.js";
import { callPort } from "./port-call.js";
import { requestObject, runOperation } from "./runner.js";

/** Everything a query's read may look at. */
export interface QueryInput<TParsed> {
  readonly ports: ResolvedPorts;
  readonly parsed: TParsed;
  readonly requester: Requester;
  readonly now: Date;
}

/**
 * A read across users (`listUsers`): unlike a command it has no one target to authorize, so it
 * narrows what it reads to what the requester may read itself. It always needs a requester.
 * The runner calls, in order: shape, (requester), parse, read.
 */
export interface Query<TParsed, TResponse> {
  readonly name: string;
  /** The request members the query reads: nothing else is copied or looked at. */
  readonly fields: FieldTree;
  shape(request: RequestObject): FieldViolation[];
  parse(request: RequestObject): Result<TParsed, FieldViolation[]>;
  read(input: QueryInput<TParsed>): Promise<Result<TResponse, ErrorBody>>;
}

/** Runs a query: the same first checks, in the same order, as a command's. Never rejects. */
export function runQuery<TParsed, TResponse>(
  ports: Ports,
  rawRequest: unknown,
  context: OperationContext | undefined,
  query: Query<TParsed, TResponse>,
  runtime: CommandRuntime,
): Promise<Result<TResponse, ErrorBody>> {
  return runOperation(ports, runtime, query.name, async (ready) => {
    const refused = contextRefusal(context);
    if (refused !== undefined) return err(refused);
    const request = requestObject(rawRequest, query.fields);
    if (request === undefined) return err(notAnObject());
    const shape = query.shape(request);
    if (shape.length > 0) return err(invalidRequest(shape));
    // Null counts as absent, as it does for commands.
    const requester = context?.requester || undefined;
    if (requester === undefined) return err(missingRequester(context));
    const parsed = query.parse(request);
    if (parsed.isErr()) return err(invalidRequest(parsed.error, resolveRequestLimits(ready.config?.limits).maxFieldViolations));
    const now = await callPort("clock", ready.logger, () => ready.clock.now());
    if (now.isErr()) return err(now.error);
    return query.read({ ports: ready, parsed: parsed.value, requester, now: now.value });
  });
}
