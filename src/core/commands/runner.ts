import { err, ok, type Result } from "neverthrow";
import type { Permission, Requester } from "../../ports/authorizer.js";
import type { Organization } from "../../ports/directory.js";
import type { Ports } from "../../ports/index.js";
import type { AppendOutcome, UserAppend } from "../../ports/user-log.js";
import type { PendingNotification } from "../../ports/outbox.js";
import type { NotificationKind } from "../../ports/storage.js";
import type { ErrorBody, FieldViolation } from "../../shared/error-body.js";
import { contextRefusal, missingRequester } from "../config-check.js";
import type { OperationContext } from "../context.js";
import { aborted, alreadyExists, invalidRequest, notAnObject, notTheUser, permissionDenied, unauthenticated, userNotFound } from "../errors/user-errors.js";
import { sequenceEvents } from "../events/user-events.js";
import { NO_COMPLEXITY_POLICY } from "../rules/password-policy.js";
import { resolvePorts, type CommandRuntime, type ResolvedPorts } from "../resolved-ports.js";
import type { RulesContext } from "../schemas/rules-context.js";
import { organizationAttributes, traceOperation } from "../telemetry/operation-span.js";
import type { TelemetrySpan } from "../../ports/telemetry.js";
import { applyEvent, foldUser } from "../users/fold-user.js";
import { findUserIdByLoginName } from "../users/login-name.js";
import { userListing } from "../users/user-listing.js";
import type { PendingCode, UserState } from "../users/user-state.js";
import { resolveRequestLimits } from "../validation/request-limits.js";
import { camelCaseKeys } from "../wire/camel-case-keys.js";
import type { FieldTree } from "../wire/field-tree.js";
import { rfc3339 } from "../wire/timestamp.js";
import { MAX_CODE_ATTEMPTS } from "../secrets/code-check.js";
import type { AppendFacts, Command, DecideInput, Decision, RequestObject } from "./command.js";
import { callPort, callPortNow, portFailure } from "./port-call.js";
import { askAuthorizer } from "./ask-authorizer.js";
import { authorizeTarget } from "./target-organization.js";

/** Tries of one decision against a stream that keeps moving, before the answer is 10. */
export const DEFAULT_APPEND_ATTEMPTS = 5;

/**
 * The request as an object holding only the members `fields` names, camelCased and bounded in
 * nodes and bytes (see camelCaseKeys); undefined when the body is not a JSON object. Commands and
 * queries both start here.
 */
export function requestObject(raw: unknown, fields: FieldTree): RequestObject | undefined {
  const copy = camelCaseKeys(raw, fields).unwrapOr(undefined);
  return copy !== null && typeof copy === "object" && !Array.isArray(copy) ? (copy as RequestObject) : undefined;
}

const rulesContexts = new WeakMap<ResolvedPorts, Map<string, RulesContext>>();

/**
 * One RulesContext per configuration and policy, so the schemas built for it are reused. No
 * organization (a request naming it badly): the rules every password policy shares, since none of
 * the organization's own can be checked (and none is reported).
 */
function rulesContext(ports: ResolvedPorts, organization: Organization | undefined): RulesContext {
  const passwordPolicy = organization === undefined ? NO_COMPLEXITY_POLICY : organization.policy?.passwordComplexity;
  const key = JSON.stringify(passwordPolicy ?? null);
  let byPolicy = rulesContexts.get(ports);
  if (byPolicy === undefined) rulesContexts.set(ports, (byPolicy = new Map()));
  let context = byPolicy.get(key);
  if (context === undefined) {
    if (byPolicy.size >= 64) byPolicy.clear();
    const passwords = ports.passwords;
    context = {
      defaultPhoneRegion: ports.config?.defaultPhoneRegion,
      refusalOfHash: (encoded) => passwords.refusalOf(encoded),
      passwordPolicy,
      maxPasswordBytes: passwords.maxPasswordBytes,
      limits: resolveRequestLimits(ports.config?.limits),
    };
    byPolicy.set(key, context);
  }
  return context;
}

/** An organization without a policy of its own: its users get the default rules. */
const DEFAULT_POLICY_ORGANIZATION: Organization = Object.freeze({ id: "", domains: [] });

/** What field rules (`parse`) answer `request` under `organization`'s policies, or undefined when they take it. */
export function fieldRulesRefusal(
  ports: ResolvedPorts,
  parse: (request: RequestObject, rules: RulesContext) => Result<unknown, FieldViolation[]>,
  request: RequestObject,
  organization: Organization,
): ErrorBody | undefined {
  const rules = rulesContext(ports, organization);
  const parsed = parse(request, rules);
  return parsed.isErr() ? invalidRequest(parsed.error, rules.limits?.maxFieldViolations) : undefined;
}

/**
 * A command's field rules under the default policies, as for an organization without its own: for
 * an answer about a user that does not exist, which must look like one about a user that does.
 */
export function parseWithDefaultRules<TParsed, TResponse>(ports: ResolvedPorts, command: Command<TParsed, TResponse>, request: RequestObject): ErrorBody | undefined {
  return fieldRulesRefusal(ports, command.parse, request, DEFAULT_POLICY_ORGANIZATION);
}

/** A user's state from its stream; undefined when it does not exist. */
export async function loadUser(ports: ResolvedPorts, userId: string): Promise<Result<UserState | undefined, ErrorBody>> {
  const events = await callPort("storage read of a user", ports.logger, () => ports.userLog.loadEvents(userId));
  return events.map(foldUser);
}

/** A command's request, checked and parsed, with who asks and what it acts on: steps 1 to 4. */
export interface PreparedCommand<TParsed, TResponse> {
  readonly command: Command<TParsed, TResponse>;
  readonly request: RequestObject;
  readonly parsed: TParsed;
  readonly requester: Requester | undefined;
  readonly organization: Organization;
  /** The existing user the command acts on, as first loaded; undefined for a creation. */
  readonly targetUserId: string | undefined;
  readonly user: UserState | undefined;
  readonly origin: string | undefined;
}

/** Who asks and what the command acts on, found and authorized. */
interface ResolvedTarget {
  readonly organization: Organization;
  readonly user: UserState | undefined;
  readonly requester: Requester | undefined;
  readonly targetUserId: string | undefined;
}

/**
 * Why a requester without `permission` on an existing user's organization is refused: 5 when it
 * may not read the organization's users either (a user outside its reach is not there for it),
 * else 7 (it may see the user, just not change it).
 */
async function refusalOfUser(ports: ResolvedPorts, requester: Requester, permission: Permission, orgId: string, userId: string, refusal = permissionDenied()): Promise<ErrorBody> {
  if (permission === "user.read") return userNotFound();
  const mayRead = await askAuthorizer(ports.authorizer, ports.logger, requester, "user.read", orgId, userId);
  if (mayRead.isErr()) return mayRead.error;
  return mayRead.value ? refusal : userNotFound();
}

/** Step 2; Ok(undefined) when the request names its target badly, which the field rules report (step 3). */
async function resolveTarget<TParsed, TResponse>(
  ports: ResolvedPorts,
  command: Command<TParsed, TResponse>,
  request: RequestObject,
  context: OperationContext,
): Promise<Result<ResolvedTarget | undefined, ErrorBody>> {
  const access = command.access(request);
  // Any falsy requester is none: JavaScript callers write `token && lookup(token)`.
  const requester = context.requester || undefined;
  if (requester === undefined && !access.proof) return err(missingRequester(context));
  const target = command.target(request, context, requester);
  if (target === undefined) return ok(undefined);
  if ("organization" in target) {
    // A new user always has an author.
    if (requester === undefined) return err(unauthenticated());
    const organization = await authorizeTarget(ports, requester, target.organization, access.permission);
    return organization.map((found) => ({ organization: found, user: undefined, requester, targetUserId: undefined }));
  }
  const unknown = async (): Promise<Result<never, ErrorBody>> => err(command.unknownUser === undefined ? userNotFound() : await command.unknownUser(ports, request));
  let userId: string;
  if ("loginName" in target) {
    const found = await findUserIdByLoginName(ports, target.loginName);
    if (found.isErr()) return err(found.error);
    if (found.value === undefined) return unknown();
    userId = found.value;
  } else userId = target.userId;
  const loaded = await loadUser(ports, userId);
  if (loaded.isErr()) return err(loaded.error);
  const user = loaded.value;
  if (user === undefined) return unknown();
  const organization = await callPort("directory lookup of the organization", ports.logger, () => ports.directory.findOrganization(user.orgId));
  if (organization.isErr()) return err(organization.error);
  const org = organization.value;
  if (org === undefined) return err(userNotFound());
  if (!access.proof && requester !== undefined && access.self === "only") {
    if (requester.userId !== userId) return err(await refusalOfUser(ports, requester, "user.write", org.id, userId, notTheUser()));
  } else if (!access.proof && requester !== undefined) {
    const named = access.self === "administrators" ? undefined : userId;
    const allowed = await askAuthorizer(ports.authorizer, ports.logger, requester, access.permission, org.id, named);
    if (allowed.isErr()) return err(allowed.error);
    // Whether it may see the user is asked with the id: only the write is an administrator's.
    if (!allowed.value) return err(await refusalOfUser(ports, requester, access.permission, org.id, userId));
  }
  return ok({ organization: org, user, requester, targetUserId: userId });
}

/** Steps 1 to 4: shape, requester, target and permission, parse. Never rejects. */
export async function prepareCommand<TParsed, TResponse>(
  ports: ResolvedPorts,
  rawRequest: unknown,
  context: OperationContext | undefined,
  command: Command<TParsed, TResponse>,
): Promise<Result<PreparedCommand<TParsed, TResponse>, ErrorBody>> {
  try {
    const refused = contextRefusal(context);
    if (refused !== undefined) return err(refused);
    const given = context ?? {};
    const request = requestObject(rawRequest, command.fields);
    if (request === undefined) return err(notAnObject());
    const shape = command.shape(request);
    if (shape.length > 0) return err(invalidRequest(shape));
    const target = await resolveTarget(ports, command, request, given);
    if (target.isErr()) return err(target.error);
    const found = target.value;
    if (command.takesPasswordHashes === true) await ports.passwords.ready();
    const rules = rulesContext(ports, found?.organization);
    const parsed = command.parse(request, rules);
    if (parsed.isErr()) return err(invalidRequest(parsed.error, rules.limits?.maxFieldViolations));
    // The field rules refuse every target a command cannot resolve, so this is a command's bug.
    if (found === undefined) return err(portFailure(new Error("the target was refused, yet the field rules passed"), command.name, ports.logger));
    const origin = (given.origin ?? ports.config?.origin)?.replace(/\/+$/, "");
    return ok({ command, request, parsed: parsed.value, origin, ...found });
  } catch (cause) {
    return err(portFailure(cause, command.name, ports.logger));
  }
}

/** An append while it is built: members in the order they are written. */
type AppendSoFar = { -readonly [K in keyof UserAppend]?: UserAppend[K] };

/** Where the code each kind of message carries is kept in a user's state. */
const CODE_OF_MESSAGE: readonly (readonly [NotificationKind, (user: UserState) => PendingCode | undefined])[] = [
  ["email.verification", (user) => user.email.code],
  ["phone.verification", (user) => user.phone?.code],
  ["email.initialization", (user) => user.initCode],
  ["email.password_reset", (user) => user.passwordResetCode],
];

/** Where each kind of message goes: over every kind, so that a new kind must say which address it is tied to. */
const ADDRESS_OF_MESSAGE: Readonly<Record<NotificationKind, "email" | "phone">> = {
  "email.verification": "email",
  "email.initialization": "email",
  "email.password_reset": "email",
  "email.passkey_registration": "email",
  "phone.verification": "phone",
};
const MESSAGE_KINDS = Object.keys(ADDRESS_OF_MESSAGE) as NotificationKind[];

/**
 * The kinds of message whose pending ones the decided events make dead: those whose code no
 * longer works after them. A new code replaces the one before it (whether it is mailed or returned
 * to the caller), and a code is used up when it is redeemed, when its last wrong try is made, when
 * the password changes (a reset code): a message still waiting for a retry must not go out with
 * it. Passkey links are the exception: each has its own code, and they live side by side. And a
 * message goes to the address it was written with: once the user's email address (or phone
 * number) changes, none still waiting for the old one may go out, even one whose code still
 * works (a reset code, a passkey link).
 */
function deadCodeKinds(before: UserState, after: UserState): NotificationKind[] {
  const moved = { email: before.email.address !== after.email.address, phone: before.phone?.number !== after.phone?.number };
  const kinds = MESSAGE_KINDS.filter((kind) => moved[ADDRESS_OF_MESSAGE[kind]]);
  for (const [kind, codeOf] of CODE_OF_MESSAGE) {
    const earlier = codeOf(before);
    if (kinds.includes(kind) || earlier === undefined || earlier.failedAttempts >= MAX_CODE_ATTEMPTS) continue;
    const later = codeOf(after);
    // Replaced or dropped, or killed by its last wrong try.
    if (later?.hash !== earlier.hash || later.failedAttempts >= MAX_CODE_ATTEMPTS) kinds.push(kind);
  }
  return kinds;
}

/** A decision and the append that writes it (none when there is nothing to write). */
export interface Decided<TResponse> {
  readonly decision: Decision<TResponse>;
  readonly append: UserAppend | undefined;
  readonly facts: AppendFacts;
}

/**
 * Steps 5 and 6: the state (loaded again after a lost race) and the decision on it. Never rejects.
 * `leaseUntil` says until when the append leases its notifications to this process, when it delivers them.
 */
export async function decideCommand<TParsed, TResponse>(
  ports: ResolvedPorts,
  prepared: PreparedCommand<TParsed, TResponse>,
  attempt: number,
  leaseUntil?: (now: Date) => Date | undefined,
): Promise<Result<Decided<TResponse>, ErrorBody>> {
  try {
    let user = prepared.user;
    if (prepared.targetUserId !== undefined && attempt > 1) {
      const loaded = await loadUser(ports, prepared.targetUserId);
      if (loaded.isErr()) return err(loaded.error);
      if (loaded.value === undefined) return err(userNotFound());
      user = loaded.value;
    }
    const clocked = callPortNow("clock", ports.logger, () => ports.clock.now());
    const now = clocked instanceof Promise ? await clocked : clocked;
    if (now.isErr()) return err(now.error);
    // Named member by member: a spread followed by new members costs microseconds on Node 20's V8.
    const input: DecideInput<TParsed> = {
      ports,
      request: prepared.request,
      parsed: prepared.parsed,
      organization: prepared.organization,
      user,
      requester: prepared.requester,
      now: now.value,
      origin: prepared.origin,
      attempt,
    };
    const decided = await prepared.command.decide(input);
    if (decided.isErr()) return err(decided.error);
    const decision = decided.value;
    const orgId = prepared.organization.id;
    const after = user?.sequence ?? 0;
    if (decision.events.length === 0) {
      const facts = { userId: decision.userId, sequence: String(after), date: user?.changedAt ?? rfc3339(now.value), resourceOwner: orgId };
      return ok({ decision, append: undefined, facts });
    }
    const date = rfc3339(now.value);
    const events = sequenceEvents(decision.events, decision.userId, orgId, date, after);
    // The listing is the fold of exactly the events the append is written after: the expected
    // sequence guarantees that no other event slips in between.
    let changed = user;
    for (const event of events) changed = applyEvent(changed, event);
    if (changed === undefined) return err(portFailure(new Error("the decided events do not make a user"), prepared.command.name, ports.logger));
    const notifications = decision.notifications ?? [];
    const leased = notifications.length > 0 ? leaseUntil?.(now.value) : undefined;
    // Member by member, in the order an append has always had: a conditional spread costs a
    // temporary object and a copy each.
    const append: AppendSoFar = { userId: decision.userId, orgId, expectedSequence: after, events, claims: decision.claims ?? [] };
    if (decision.releasedClaims !== undefined && decision.releasedClaims.length > 0) append.releasedClaims = decision.releasedClaims;
    append.notifications = notifications;
    if (leased !== undefined) append.leaseNotificationsUntil = leased;
    const withdrawn = user === undefined ? [] : deadCodeKinds(user, changed);
    if (withdrawn.length > 0) append.withdrawnNotificationKinds = withdrawn;
    append.listing = userListing(changed);
    const facts = { userId: decision.userId, sequence: String(after + decision.events.length), date, resourceOwner: orgId };
    return ok({ decision, append: append as UserAppend, facts });
  } catch (cause) {
    return err(portFailure(cause, prepared.command.name, ports.logger));
  }
}

/** What to do after the store's answer: answer (steps 8 and 9), or decide again. */
export type Finish<TResponse> = { readonly retry: true } | { readonly retry: false; readonly answer: Result<TResponse, ErrorBody> };

/**
 * Steps 8 and 9 after a written append, or the way on after a refused one. Never rejects; a
 * promise only when there is something to deliver.
 */
export function finishCommand<TResponse>(
  ports: ResolvedPorts,
  runtime: CommandRuntime,
  decided: Decided<TResponse>,
  outcome: AppendOutcome,
): Finish<TResponse> | Promise<Finish<TResponse>> {
  if (!outcome.ok) {
    // A generated notification id that is taken is drawn again, as a generated user id is.
    if (outcome.reason === "sequence-conflict" || outcome.reason === "notification-id-taken") return { retry: true };
    if (outcome.reason === "user-not-found") return { retry: false, answer: err(userNotFound()) };
    const onHeld = decided.decision.onClaimHeld?.(outcome.conflict) ?? alreadyExists(outcome.conflict.kind);
    return onHeld === "retry" ? { retry: true } : { retry: false, answer: err(onHeld) };
  }
  const ids = decided.append?.notifications.map((notification) => notification.id) ?? [];
  return ids.length > 0 ? deliveredThenAnswered(ports, runtime, decided, outcome.leased, ids) : answered(ports, decided);
}

async function deliveredThenAnswered<TResponse>(
  ports: ResolvedPorts,
  runtime: CommandRuntime,
  decided: Decided<TResponse>,
  leased: readonly PendingNotification[] | undefined,
  ids: readonly string[],
): Promise<Finish<TResponse>> {
  // The lease end goes with them: a failure reported after another process took them over is ignored.
  const until = decided.append?.leaseNotificationsUntil;
  await runtime.deliver(ports, ids, leased === undefined || until === undefined ? undefined : { notifications: leased, until });
  return answered(ports, decided);
}

function answered<TResponse>(ports: ResolvedPorts, decided: Decided<TResponse>): Finish<TResponse> {
  try {
    return { retry: false, answer: decided.decision.respond(decided.facts) };
  } catch (cause) {
    return { retry: false, answer: err(portFailure(cause, "response", ports.logger)) };
  }
}

function appendAttempts(ports: ResolvedPorts): number {
  const configured = ports.config?.appendAttempts;
  return configured !== undefined && Number.isInteger(configured) && configured >= 1 ? configured : DEFAULT_APPEND_ATTEMPTS;
}

/**
 * Steps 5 to 9 from `attempt` on: decide, append with the expected sequence (deciding again on a
 * lost race, up to `config.appendAttempts` tries in all, then 10), deliver, respond. Never rejects.
 * `keepAnswer` is given each try's answer before its append and waited for (the bulk import's
 * `beforeWrite`); when it throws, the call answers 13 and nothing is written.
 */
export async function continueCommand<TParsed, TResponse>(
  ports: ResolvedPorts,
  runtime: CommandRuntime,
  prepared: PreparedCommand<TParsed, TResponse>,
  attempt = 1,
  beforeWrite?: () => void,
  keepAnswer?: (answer: TResponse) => void | Promise<void>,
): Promise<Result<TResponse, ErrorBody>> {
  try {
    // A try before this one decided something other than a wrong proof, and lost its race.
    let provenEarlier = false;
    for (let next = attempt; next <= appendAttempts(ports); next++) {
      const decided = await decideCommand(ports, prepared, next, (now) => runtime.leaseForWrite(ports, now));
      if (decided.isErr()) return err(decided.error);
      const { append, decision } = decided.value;
      if (append === undefined || (provenEarlier && decision.wrongTry === true)) return decision.respond(decided.value.facts);
      if (keepAnswer !== undefined) {
        const answer = decision.respond(decided.value.facts);
        if (answer.isOk()) await keepAnswer(answer.value);
      }
      beforeWrite?.();
      const outcome = await callPort("storage write", ports.logger, () => ports.userLog.append(append));
      if (outcome.isErr()) return err(outcome.error);
      const finishing = finishCommand(ports, runtime, decided.value, outcome.value);
      const finish = finishing instanceof Promise ? await finishing : finishing;
      if (!finish.retry) return finish.answer;
      provenEarlier ||= decision.wrongTry !== true;
    }
    return err(aborted());
  } catch (cause) {
    return err(portFailure(cause, prepared.command.name, ports.logger));
  }
}

/**
 * The frame every command and query runs in: the ports resolved, a span named after the
 * operation, and anything unexpected turned into code 13, so that an operation never rejects.
 */
export async function runOperation<T>(
  ports: Ports,
  runtime: CommandRuntime,
  name: string,
  work: (ready: ResolvedPorts, span?: TelemetrySpan) => Promise<Result<T, ErrorBody>>,
): Promise<Result<T, ErrorBody>> {
  try {
    const resolved = resolvePorts(ports, runtime);
    if (resolved.isErr()) return err(resolved.error);
    const ready = resolved.value;
    // Telemetry: a span per operation (see core/telemetry); without it, the same steps unwrapped.
    return await traceOperation(ready.telemetry, name, (span) => work(ready, span));
  } catch (cause) {
    return err(portFailure(cause, name, ports?.logger));
  }
}

/**
 * Runs a command: shape, requester, target and permission, parse, then load, decide and append
 * with the expected sequence (deciding again on a lost race, up to `config.appendAttempts` times,
 * then 10), deliver, respond. Never rejects: anything unexpected becomes code 13.
 */
export function runCommand<TParsed, TResponse>(
  ports: Ports,
  request: unknown,
  context: OperationContext | undefined,
  command: Command<TParsed, TResponse>,
  runtime: CommandRuntime,
): Promise<Result<TResponse, ErrorBody>> {
  return runOperation(ports, runtime, command.name, async (ready, span) => {
    // Only a command that writes can deliver, so it counts from its first write on: a read, or a
    // refused request, never waits for others' delivery records.
    let end: (() => Promise<void> | undefined) | undefined;
    const writes = () => {
      end ??= runtime.beginCommand(ready.storage);
    };
    try {
      const prepared = await prepareCommand(ready, request, context, command);
      if (prepared.isErr()) return err(prepared.error);
      span?.setAttributes(organizationAttributes(prepared.value.organization.id));
      return await continueCommand(ready, runtime, prepared.value, 1, writes);
    } finally {
      // The last writing command in flight answers once the deliveries of all are recorded (never rejects).
      const recording = end?.();
      if (recording !== undefined) await recording;
    }
  });
}
