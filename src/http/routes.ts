import type { ResultAsync } from "neverthrow";
import type { OperationContext } from "../core/context.js";
import type { ErrorBody } from "../core/errors/index.js";
import type { Ports } from "../ports/index.js";
import { connectDialect, restDialect, type Dialect } from "./dialect.js";
import { createHumanUser, importHumanUser } from "../operations/index.js";

/** Operations A and B as the handler calls them; the `Ok` value is the response body. */
export type Operation = (ports: Ports, request: unknown, context: OperationContext) => ResultAsync<unknown, ErrorBody>;

export interface Route {
  readonly operation: Operation;
  readonly dialect: Dialect;
}

/** Each operation on its REST path and on its Connect RPC path (`/package.Service/Method`). */
export const ROUTES: ReadonlyMap<string, Route> = new Map([
  ["/v2/users/human", { operation: createHumanUser, dialect: restDialect }],
  ["/management/v1/users/human/_import", { operation: importHumanUser, dialect: restDialect }],
  ["/zitadel.user.v2.UserService/AddHumanUser", { operation: createHumanUser, dialect: connectDialect }],
  ["/zitadel.management.v1.ManagementService/ImportHumanUser", { operation: importHumanUser, dialect: connectDialect }],
]);

const CONNECT_PATH = /^\/[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\/[A-Za-z_]\w*$/;

/** The style an unknown path is answered in: Connect for anything shaped like `/pkg.Service/Method`. */
export function dialectForUnknownPath(path: string): Dialect {
  return CONNECT_PATH.test(path) ? connectDialect : restDialect;
}
