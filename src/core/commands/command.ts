import { err, type Result } from "neverthrow";
import type { Permission, Requester } from "../../ports/authorizer.js";
import type { Organization } from "../../ports/directory.js";
import type { OutboxNotification } from "../../ports/outbox.js";
import type { UniqueClaim } from "../../ports/user-log.js";
import type { ErrorBody, FieldViolation } from "../../shared/error-body.js";
import type { OperationContext } from "../context.js";
import type { UserEventDraft } from "../events/user-events.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import type { RulesContext } from "../schemas/rules-context.js";
import type { UserState } from "../users/user-state.js";
import type { FieldTree } from "../wire/field-tree.js";
import type { OrganizationRef } from "./target-organization.js";

export type RequestObject = Readonly<Record<string, unknown>>;

/** What a command acts on: a new user in an organization, or an existing user by its id or login name. */
export type Target = { readonly organization: OrganizationRef } | { readonly userId: string } | { readonly loginName: string };

/**
 * Who may call. `permission` is checked on the target's organization. With `proof`, the request
 * carries a secret (a code, a password) that is the proof: no requester is needed, and one that is
 * given needs no permission.
 */
export interface Access {
  readonly permission: Permission;
  readonly proof: boolean;
  /**
   * How the target user's own call is treated (default: the authorizer decides, told the user's
   * id). `only`: without the proof, only the user itself may call, no permission lets another (as
   * ZITADEL's RegisterPasskey without a code: whoever begins the registration chooses the
   * authenticator that will sign in as the user). `administrators`: the authorizer is not told the
   * user's id, so a host's rule letting users act on themselves does not apply (as ZITADEL's
   * UnlockUser: a locked user must not unlock itself).
   */
  readonly self?: "only" | "administrators";
}

/** Everything a decision may look at. */
export interface DecideInput<TParsed> {
  readonly ports: ResolvedPorts;
  readonly request: RequestObject;
  readonly parsed: TParsed;
  readonly organization: Organization;
  /** The user as its events say it is now; undefined for a command that creates one. */
  readonly user: UserState | undefined;
  readonly requester: Requester | undefined;
  readonly now: Date;
  /** Public base URL for links, without a trailing slash, when the call or the configuration gives one: links start with `linkOrigin`. */
  readonly origin: string | undefined;
  /** 1 on the first try, then 2, 3, ... after each lost race. */
  readonly attempt: number;
}

/** The facts of a written append (or of the state, when nothing was appended), for the response. */
export interface AppendFacts {
  readonly userId: string;
  /** The stream's last sequence, as a decimal string. */
  readonly sequence: string;
  /** RFC 3339: the events' time (the clock's time), or the user's last change when nothing was appended. */
  readonly date: string;
  readonly resourceOwner: string;
}

/** What a command decided: the events to append, and the answer once they are written. */
export interface Decision<TResponse> {
  readonly userId: string;
  /** None: nothing is appended (a read, or nothing to change). */
  readonly events: readonly UserEventDraft[];
  readonly claims?: readonly UniqueClaim[];
  /**
   * Claims the user gives up. Never one of `claims`: every store refuses such an append
   * (`claim-held`). A claim the user keeps (a username changed to another spelling of itself) is
   * in neither list.
   */
  readonly releasedClaims?: readonly UniqueClaim[];
  readonly notifications?: readonly OutboxNotification[];
  /** The answer after the append; an Err is answered too, with the events still appended (a failed attempt is recorded). */
  respond(facts: AppendFacts): Result<TResponse, ErrorBody>;
  /**
   * The events record a wrong proof (a password or code that does not match). Not appended when
   * an earlier try of the same call found its proof right and lost its race: the password or code
   * changed under it, the caller did not guess, and a double submit must neither count towards a
   * lockout nor use up the tries of a code nobody has seen yet. The refusal is answered all the same.
   */
  readonly wrongTry?: true;
  /** Another user holds one of the claims: answer (default: 6 naming it), or "retry" to decide again. */
  onClaimHeld?(conflict: UniqueClaim): ErrorBody | "retry";
}

/** A wrong proof: recorded by `events`, answered with `answer` (see `Decision.wrongTry`). */
export function wrongTry<TResponse>(userId: string, events: UserEventDraft[], answer: ErrorBody): Decision<TResponse> {
  return { userId, events, wrongTry: true, respond: () => err(answer) };
}

/**
 * One operation on users. The runner calls these in order: shape, (requester), target, (access),
 * parse, then decide and append, deciding again on a lost race.
 */
export interface Command<TParsed, TResponse> {
  /** The function's name, for logs (`createHumanUser`). */
  readonly name: string;
  /**
   * The request may carry a password hash to store, which its rules judge as this runtime will
   * verify it: validation then waits for the one lookup of the runtime's hashing paths.
   */
  readonly takesPasswordHashes?: boolean;
  /** The request members the command reads (derive it from the schema with `fieldTreeOf`): nothing else is copied or looked at. */
  readonly fields: FieldTree;
  /** Required objects and other structure checked before anyone is asked for permission. */
  shape(request: RequestObject): FieldViolation[];
  access(request: RequestObject): Access;
  /** Undefined when the request names its target in a way the field rules refuse: they report it, and nothing is looked up. */
  target(request: RequestObject, context: OperationContext, requester: Requester | undefined): Target | undefined;
  parse(request: RequestObject, rules: RulesContext): Result<TParsed, FieldViolation[]>;
  decide(input: DecideInput<TParsed>): Promise<Result<Decision<TResponse>, ErrorBody>>;
  /**
   * The answer when the target user does not exist (default 5). A password check answers as for a
   * wrong password, after as much work, so that nobody learns which users exist.
   */
  unknownUser?(ports: ResolvedPorts, request: RequestObject): Promise<ErrorBody>;
}
