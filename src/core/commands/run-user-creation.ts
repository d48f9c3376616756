import { err, ok, type Result } from "neverthrow";
import type { Requester } from "../../ports/authorizer.js";
import type { Ports } from "../../ports/index.js";
import type { AppendOutcome, Organization } from "../../ports/storage.js";
import { deliverPendingNotifications } from "../../notifications/deliver.js";
import type { OperationContext } from "../context.js";
import type { ErrorBody, FieldViolation } from "../../shared/error-body.js";
import { alreadyExists, invalidRequest, nestedTooDeeply, notAnObject, unauthenticated } from "../errors/user-errors.js";
import { resolvePorts, type ResolvedPorts } from "../resolved-ports.js";
import type { RulesContext } from "../schemas/rules-context.js";
import type { UserDraft } from "../user-draft.js";
import { camelCaseKeys } from "../wire/camel-case-keys.js";
import { checkBusinessRules, userClaims } from "./business-rules.js";
import { callPort, portFailure } from "./port-call.js";
import { authorizeTarget, type OrganizationRef } from "./target-organization.js";
import { planUserWrite, type Operation, type PlannedWrite } from "./user-write.js";

type RequestObject = Readonly<Record<string, unknown>>;

/** What differs between the two operations; everything else is one pipeline. */
export interface OperationSpec<TResponse> {
  readonly operation: Operation;
  /** Required objects and other structure checked before anyone is asked for permission. */
  shape(request: RequestObject): FieldViolation[];
  target(request: RequestObject, context: OperationContext, requester: Requester): OrganizationRef;
  parse(request: RequestObject, rules: RulesContext): Result<UserDraft, FieldViolation[]>;
  /** The field a refused username is reported on. */
  usernameField(request: RequestObject): string;
  respond(planned: PlannedWrite, details: ResponseFacts): TResponse;
}

export interface ResponseFacts {
  readonly userId: string;
  readonly sequence: string;
  readonly date: string;
  readonly resourceOwner: string;
}

const DEFAULT_ORIGIN = "http://localhost:8080";

function isRequestObject(value: unknown): value is RequestObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

const rulesContexts = new WeakMap<ResolvedPorts, Map<string, RulesContext>>();

/** One RulesContext per configuration and policy, so the schemas built for it are reused. */
function rulesContext(ports: ResolvedPorts, organization: Organization): RulesContext {
  const passwordPolicy = organization.policy?.passwordComplexity;
  const key = JSON.stringify(passwordPolicy ?? null);
  let byPolicy = rulesContexts.get(ports);
  if (byPolicy === undefined) rulesContexts.set(ports, (byPolicy = new Map()));
  let context = byPolicy.get(key);
  if (context === undefined) {
    if (byPolicy.size >= 64) byPolicy.clear();
    context = { defaultPhoneRegion: ports.config?.defaultPhoneRegion, hashBounds: ports.hashBounds, passwordPolicy };
    byPolicy.set(key, context);
  }
  return context;
}

async function storedPasswordHash(ports: ResolvedPorts, draft: UserDraft): Promise<Result<string | undefined, ErrorBody>> {
  const password = draft.password;
  if (password === undefined) return ok(undefined);
  if (password.kind === "hashed") return ok(password.encoded);
  return callPort("password hasher", ports.logger, () => ports.passwordHasher.hash(password.plain));
}

function deliverAfterWrite(ports: ResolvedPorts, planned: PlannedWrite): Promise<unknown> {
  const ids = planned.write.notifications.map((notification) => notification.id);
  const mode = ports.config?.immediateDelivery ?? "await";
  if (ids.length === 0 || mode === "off") return Promise.resolve();
  // deliverPendingNotifications never rejects; a failed delivery stays in the outbox for a retry.
  const delivery = deliverPendingNotifications(ports, { ids });
  return mode === "await" ? delivery : Promise.resolve();
}

/** Everything up to the write: checked, decided and planned, nothing stored yet. */
export interface PreparedUser<TResponse> {
  readonly spec: OperationSpec<TResponse>;
  readonly planned: PlannedWrite;
  readonly resourceOwner: string;
}

async function prepare<TResponse>(
  ports: ResolvedPorts,
  rawRequest: unknown,
  context: OperationContext,
  spec: OperationSpec<TResponse>,
): Promise<Result<PreparedUser<TResponse>, ErrorBody>> {
  const copied = camelCaseKeys(rawRequest);
  if (copied.isErr()) return err(nestedTooDeeply());
  const request = copied.value;
  if (!isRequestObject(request)) return err(notAnObject());
  const shape = spec.shape(request);
  if (shape.length > 0) return err(invalidRequest(shape));

  const requester = context.requester;
  if (requester === undefined || requester === null) return err(unauthenticated());
  const organization = await authorizeTarget(ports, requester, spec.target(request, context, requester));
  if (organization.isErr()) return err(organization.error);
  const org = organization.value;

  const parsed = spec.parse(request, rulesContext(ports, org));
  if (parsed.isErr()) return err(invalidRequest(parsed.error));
  const draft = parsed.value;

  const userId = draft.userId !== undefined ? ok(draft.userId) : await callPort("id generator", ports.logger, () => ports.ids.next());
  if (userId.isErr()) return err(userId.error);
  const claims = userClaims(userId.value, draft, org);
  const rules = await checkBusinessRules(ports, draft, org, claims, { usernameField: spec.usernameField(request) });
  if (rules.isErr()) return err(rules.error);

  const encodedHash = await storedPasswordHash(ports, draft);
  if (encodedHash.isErr()) return err(encodedHash.error);
  const now = await callPort("clock", ports.logger, () => ports.clock.now());
  if (now.isErr()) return err(now.error);

  const origin = (context.origin ?? ports.config?.origin ?? DEFAULT_ORIGIN).replace(/\/+$/, "");
  const planned = await planUserWrite(ports, {
    operation: spec.operation,
    draft,
    organization: org,
    userId: userId.value,
    claims,
    encodedHash: encodedHash.value,
    now: now.value,
    origin,
  });
  if (planned.isErr()) return err(portFailure(new Error(planned.error), "link configuration", ports.logger));

  return ok({ spec, planned: planned.value, resourceOwner: org.id });
}

/**
 * After the store's answer to the prepared write: a held claim answers 6, otherwise the new
 * notifications are handed over and the response body is made.
 */
export async function finishUserCreation<TResponse>(
  ports: ResolvedPorts,
  prepared: PreparedUser<TResponse>,
  outcome: AppendOutcome,
): Promise<Result<TResponse, ErrorBody>> {
  if (!outcome.ok) return err(alreadyExists(outcome.conflict.kind));
  const { planned, spec } = prepared;
  await deliverAfterWrite(ports, planned);
  const last = planned.write.events[planned.write.events.length - 1];
  return ok(
    spec.respond(planned, {
      userId: planned.write.userId,
      sequence: String(last?.sequence ?? 0),
      date: last?.createdAt ?? "",
      resourceOwner: prepared.resourceOwner,
    }),
  );
}

/**
 * The shared pipeline of both operations: shape, who and where, validation, rules against
 * storage, one atomic write, then delivery. Never rejects: anything unexpected becomes code 13.
 */
export async function runUserCreation<TResponse>(
  ports: Ports,
  request: unknown,
  context: OperationContext | undefined,
  spec: OperationSpec<TResponse>,
): Promise<Result<TResponse, ErrorBody>> {
  try {
    const resolved = resolvePorts(ports);
    const prepared = await prepareUserCreation(resolved, request, context, spec);
    if (prepared.isErr()) return err(prepared.error);
    const { write } = prepared.value.planned;
    const outcome = await callPort("storage write", resolved.logger, () => resolved.storage.appendUser(write));
    if (outcome.isErr()) return err(outcome.error);
    return await finishUserCreation(resolved, prepared.value, outcome.value);
  } catch (cause) {
    return err(portFailure(cause, `${spec.operation} user`, ports?.logger));
  }
}

/**
 * The first half of the pipeline, for callers that write many users at once (bulk import):
 * everything but the write. Never rejects.
 */
export async function prepareUserCreation<TResponse>(
  ports: ResolvedPorts,
  request: unknown,
  context: OperationContext | undefined,
  spec: OperationSpec<TResponse>,
): Promise<Result<PreparedUser<TResponse>, ErrorBody>> {
  try {
    return await prepare(ports, request, context ?? {}, spec);
  } catch (cause) {
    return err(portFailure(cause, `${spec.operation} user`, ports.logger));
  }
}
