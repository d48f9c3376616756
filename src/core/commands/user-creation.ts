import { err, ok, type Result } from "neverthrow";
import type { CodeKind } from "../../ports/config.js";
import type { Organization } from "../../ports/directory.js";
import type { NotificationKind, OutboxNotification } from "../../ports/outbox.js";
import type { UniqueClaim } from "../../ports/user-log.js";
import { encodeBase64 } from "../../shared/base64.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { idpLinkClaim, userIdClaim, usernameClaim } from "../claims.js";
import { aborted, alreadyExists, identityProviderNotFound, reservedDomain } from "../errors/user-errors.js";
import type { CodeAdded, HumanAdded, UserEventDraft } from "../events/user-events.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import { usernameDomain, type UsernameDomain } from "../rules/username.js";
import { importFingerprint } from "../users/import-fingerprint.js";
import type { TemplateValue } from "../rules/url-template.js";
import { codeSpec, generateCode, hashedCode } from "../secrets/codes.js";
import { encryptSecret, type EncryptedSecret } from "../secrets/encrypt.js";
import type { UserDraft } from "../user-draft.js";
import { durationSeconds, rfc3339 } from "../wire/timestamp.js";
import type { AppendFacts, DecideInput, Decision } from "./command.js";
import { callPort, callPortNow } from "./port-call.js";
import { linkOrigin, messageLink } from "./user-message.js";

/** Which creation: the v2 `AddHumanUser` (verification codes) or the management `ImportHumanUser` (initialization). */
export type CreationKind = "create" | "import";

/** What a creation's response may carry beyond the facts of its write. */
export interface CreationExtras {
  readonly emailCode?: string;
  readonly phoneCode?: string;
  readonly passwordlessLink?: { readonly link: string; readonly lifetimeSeconds: number };
}

/** The rules that need storage, in the order ZITADEL checks them; then the events, claims and notifications. */
export interface CreationSpec<TResponse> {
  readonly kind: CreationKind;
  /**
   * An import for a host that sends its own invitations: no initialization code, no phone code and
   * no message of any kind (a passwordless link asked for is still made).
   */
  readonly withoutCodes?: boolean;
  /** The field a refused username is reported on. */
  usernameField(input: DecideInput<UserDraft>): string;
  respond(facts: AppendFacts, extras: CreationExtras): TResponse;
}

/** The claims a new user takes. */
export function userClaims(userId: string, draft: UserDraft, organization: Organization): UniqueClaim[] {
  return [userIdClaim(userId), usernameClaim(draft.username, organization), ...draft.idpLinks.map(idpLinkClaim)];
}

/** What the directory says against a new user: an identity provider unknown here, or a domain another organization verified. */
async function directoryRefusal(
  ports: ResolvedPorts,
  draft: UserDraft,
  domain: UsernameDomain | undefined,
  organization: Organization,
  usernameField: string,
): Promise<Result<{ readonly refusal: ErrorBody; readonly before: "idp_link" | "domain" } | undefined, ErrorBody>> {
  const { directory, logger } = ports;
  for (const link of draft.idpLinks) {
    const provider = await callPort("storage lookup of an identity provider", logger, () => directory.findIdentityProvider(link.idpId));
    if (provider.isErr()) return err(provider.error);
    const usable = provider.value !== undefined && (provider.value.orgId === undefined || provider.value.orgId === organization.id);
    if (!usable) return ok({ refusal: identityProviderNotFound(), before: "idp_link" });
  }
  if (domain !== undefined) {
    const owner = await callPort("storage lookup of a domain", logger, () => directory.findOrganizationByDomain(domain.written));
    if (owner.isErr()) return err(owner.error);
    if (owner.value !== undefined && owner.value.id !== organization.id) return ok({ refusal: reservedDomain(usernameField), before: "domain" });
  }
  return ok(undefined);
}

/**
 * The rules that need storage, in the order ZITADEL checks them: user id free, username free, every
 * identity provider known here, every provider account free, and the username's domain not
 * verified by another organization. The claims are only looked up when the directory refuses the
 * user (to tell which refusal comes first): otherwise the append itself checks them, and a new
 * user costs no extra round trip.
 */
async function checkCreationRules(
  ports: ResolvedPorts,
  draft: UserDraft,
  domain: UsernameDomain | undefined,
  organization: Organization,
  claims: readonly UniqueClaim[],
  usernameField: string,
  idRequested: boolean,
): Promise<Result<void, ErrorBody | "user-id-taken">> {
  const directory = await directoryRefusal(ports, draft, domain, organization, usernameField);
  if (directory.isErr()) return err(directory.error);
  if (directory.value === undefined) return ok(undefined);
  const held = await callPort("storage lookup of claims", ports.logger, () => ports.userLog.findHeldClaims(claims));
  if (held.isErr()) return err(held.error);
  const heldKinds = new Set(held.value.map((claim) => claim.kind));
  // A generated id is never the caller's problem: a taken username is the answer before it.
  if (heldKinds.has("user_id") && idRequested) return err("user-id-taken");
  if (heldKinds.has("username")) return err(alreadyExists("username"));
  if (heldKinds.has("user_id")) return err("user-id-taken");
  const { refusal, before } = directory.value;
  if (before === "domain" && heldKinds.has("idp_link")) return err(alreadyExists("idp_link"));
  return err(refusal);
}

/**
 * After a write lost its race (a generated id another user took meanwhile, as a rule), the answer
 * when another of the new user's claims is held: a taken username or provider account is the
 * caller's 6, where drawing ids again would end in 10. Only on a retry: a first write checks the
 * claims itself, with no lookup before it.
 */
async function heldBesidesId(ports: ResolvedPorts, claims: readonly UniqueClaim[]): Promise<ErrorBody | undefined> {
  const others = claims.filter((claim) => claim.kind !== "user_id");
  const held = await callPort("storage lookup of claims", ports.logger, () => ports.userLog.findHeldClaims(others));
  if (held.isErr()) return held.error;
  const kinds = new Set(held.value.map((claim) => claim.kind));
  if (kinds.has("username")) return alreadyExists("username");
  return kinds.has("idp_link") ? alreadyExists("idp_link") : undefined;
}

/** Draws of a generated user id that another user holds, before the answer is 10 (never 6: see decideCreation). */
const MAX_ID_DRAWS = 5;

// A lost race decides again, but a plain password is hashed once per call, not once per try.
const hashes = new WeakMap<UserDraft, Promise<Result<string | undefined, ErrorBody>>>();

/** The hash to store: as given, or the plain password's, hashed once (a promise only then). */
function storedPasswordHash(ports: ResolvedPorts, draft: UserDraft): Result<string | undefined, ErrorBody> | Promise<Result<string | undefined, ErrorBody>> {
  const password = draft.password;
  if (password === undefined) return ok(undefined);
  if (password.kind === "hashed") return ok(password.encoded);
  let hashed = hashes.get(draft);
  if (hashed === undefined) {
    hashed = callPort("password hasher", ports.logger, () => ports.passwords.hash(password.plain));
    hashes.set(draft, hashed);
  }
  return hashed;
}

export interface IssuedCode {
  readonly plain: string;
  /** The event payload part: keyed hash and validity, never the code. */
  readonly stored: CodeAdded;
  readonly expiresAt: string;
  readonly lifetimeSeconds: number;
}

export const DEFAULT_TEMPLATES = {
  verification: "/ui/login/mail/verification?userID={{.UserID}}&code={{.Code}}&orgID={{.OrgID}}",
  initialization: "/ui/login/user/init?userID={{.UserID}}&code={{.Code}}&orgID={{.OrgID}}",
} as const;

/** Issues a fresh code of `kind` at `now`: the plain code, and what its event keeps. */
export function issueCode(ports: ResolvedPorts, kind: CodeKind, now: Date): IssuedCode {
  const spec = codeSpec(ports.config, kind);
  const plain = generateCode(spec, ports.random);
  return {
    plain,
    stored: { code: hashedCode(plain, ports.keys), expiry: durationSeconds(spec.lifetimeSeconds) },
    expiresAt: rfc3339(new Date(now.getTime() + spec.lifetimeSeconds * 1000)),
    lifetimeSeconds: spec.lifetimeSeconds,
  };
}

/** A code's event payload: its keyed hash and validity, and whether the code went back in the response. */
export function codeAdded(code: IssuedCode, returned: boolean): CodeAdded {
  const { stored } = code;
  // Member by member: a spread followed by a new member costs microseconds on Node 20's V8.
  return returned ? { code: stored.code, expiry: stored.expiry, codeReturned: true } : stored;
}

interface Plan {
  readonly events: UserEventDraft[];
  readonly notifications: OutboxNotification[];
  readonly extras: CreationExtras;
}

/** What a new user's notifications and links are made from. */
interface NewUser {
  readonly ports: ResolvedPorts;
  readonly userId: string;
  readonly draft: UserDraft;
  readonly organization: Organization;
  readonly origin: string | undefined;
  readonly createdAt: string;
}

// Functions of their own, not closures made on every call: a creation that only returns its code
// makes none of these.
function codeNotification(user: NewUser, kind: NotificationKind, recipient: string, code: IssuedCode, link: string): OutboxNotification {
  const { profile } = user.draft;
  return {
    id: user.ports.ids.next(),
    kind,
    userId: user.userId,
    orgId: user.organization.id,
    recipient,
    code: code.plain,
    link,
    locale: profile.preferredLanguage,
    displayName: profile.displayName,
    username: user.draft.username,
    createdAt: user.createdAt,
    expiresAt: code.expiresAt,
  };
}

const VERIFICATION_TEMPLATE_FIELD = ["email", "sendCode", "urlTemplate"];
const USER_ID_FIELD = ["userId"];

/** The request's own user id, when it chose one: a configured link it breaks is refused on it. */
function chosenIdField(draft: UserDraft): readonly string[] | undefined {
  return draft.userId === undefined ? undefined : USER_ID_FIELD;
}

function linkValues(user: NewUser, code: IssuedCode): Readonly<Partial<Record<TemplateValue, string>>> {
  return { UserID: user.userId, Code: code.plain, OrgID: user.organization.id };
}

/**
 * Every event and notification of one new user. Synchronous: the one step that waits (sealing a
 * TOTP secret with Web Crypto) is done before, and a creation without one waits for nothing here.
 */
function planCreation<TResponse>(
  ports: ResolvedPorts,
  spec: CreationSpec<TResponse>,
  input: DecideInput<UserDraft>,
  userId: string,
  encodedHash: string | undefined,
  totpSecret: EncryptedSecret | undefined,
): Result<Plan, ErrorBody> {
  const { parsed: draft, organization, now } = input;
  const { config } = ports;
  const { kind } = spec;
  const issuesCodes = spec.withoutCodes !== true;
  const createdAt = rfc3339(now);
  const fingerprint = kind === "import" ? importFingerprint(draft, organization.id) : undefined;
  const events: UserEventDraft[] = [{ type: "user.human.added", payload: addedPayload(draft, encodedHash, fingerprint) }];
  const notifications: OutboxNotification[] = [];
  const extras: { emailCode?: string; phoneCode?: string; passwordlessLink?: NonNullable<CreationExtras["passwordlessLink"]> } = {};

  const user: NewUser = { ports, userId, draft, organization, origin: input.origin, createdAt };

  // Email: verified, or a verification code (create), or an initialization code (import).
  const { email } = draft;
  if (email.verified) events.push({ type: "user.human.email.verified", payload: {} });
  if (kind === "create" && !email.verified) {
    const code = issueCode(ports, "email", now);
    const returned = email.codeDelivery === "return";
    events.push({ type: "user.human.email.code.added", payload: codeAdded(code, returned) });
    if (returned) extras.emailCode = code.plain;
    else {
      const source = { requested: email.urlTemplate, requestField: VERIFICATION_TEMPLATE_FIELD, configured: config?.emailVerificationUrlTemplate, defaultPath: DEFAULT_TEMPLATES.verification, chosenField: chosenIdField(draft) };
      const link = messageLink(ports, input.origin, source, linkValues(user, code));
      if (link.isErr()) return err(link.error);
      notifications.push(codeNotification(user, "email.verification", email.address, code, link.value));
    }
  }
  if (kind === "import" && issuesCodes && (!email.verified || draft.password === undefined)) {
    const code = issueCode(ports, "init", now);
    events.push({ type: "user.human.initialization.code.added", payload: code.stored });
    const source = { requested: undefined, requestField: [], configured: config?.initializationUrlTemplate, defaultPath: DEFAULT_TEMPLATES.initialization, chosenField: chosenIdField(draft) };
    const link = messageLink(ports, input.origin, source, linkValues(user, code));
    if (link.isErr()) return err(link.error);
    notifications.push(codeNotification(user, "email.initialization", email.address, code, link.value));
  }

  const { phone } = draft;
  if (phone !== undefined) {
    if (phone.verified) events.push({ type: "user.human.phone.verified", payload: {} });
    else if (issuesCodes) {
      const code = issueCode(ports, "phone", now);
      const returned = phone.codeDelivery === "return";
      events.push({ type: "user.human.phone.code.added", payload: codeAdded(code, returned) });
      if (returned) extras.phoneCode = code.plain;
      else if (ports.sms !== undefined) notifications.push(codeNotification(user, "phone.verification", phone.number, code, ""));
    }
  }

  for (const entry of draft.metadata) {
    events.push({ type: "user.metadata.set", payload: { key: entry.key, value: encodeBase64(entry.value) } });
  }
  for (const idp of draft.idpLinks) {
    events.push({
      type: "user.human.externalidp.added",
      payload: { idpConfigId: idp.idpId, userId: idp.externalUserId, ...(idp.displayName !== "" ? { displayName: idp.displayName } : {}) },
    });
  }
  if (totpSecret !== undefined) {
    events.push({ type: "user.human.mfa.otp.added", payload: { secret: totpSecret } });
    events.push({ type: "user.human.mfa.otp.verified", payload: {} });
  }
  if (draft.passwordlessRegistration) {
    const code = issueCode(ports, "passwordless", now);
    const codeId = ports.ids.next();
    events.push({ type: "user.human.passwordless.initialization.code.added", payload: { id: codeId, ...code.stored } });
    // Percent-encoded as URL templates are (a space is %20, not the form encoding's +).
    const values = { userID: userId, orgID: organization.id, codeID: codeId, code: code.plain };
    const query = Object.entries(values).map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&");
    extras.passwordlessLink = { link: `${linkOrigin(ports, input.origin)}/ui/login/login/passwordless/init?${query}`, lifetimeSeconds: code.lifetimeSeconds };
  }
  return ok({ events, notifications, extras });
}

/** The added event's payload while it is built: members in the order they are written. */
type AddedPayloadSoFar = { -readonly [K in keyof HumanAdded]?: HumanAdded[K] };

function addedPayload(draft: UserDraft, encodedHash: string | undefined, fingerprint: string | undefined): HumanAdded {
  const { profile } = draft;
  // Member by member, in the stored order: a conditional spread costs a temporary object and a
  // copy each (about 1 µs of the call on Node 20's V8), and the stored JSON must not change.
  const payload: AddedPayloadSoFar = { userName: draft.username, firstName: profile.givenName, lastName: profile.familyName };
  if (profile.nickName !== "") payload.nickName = profile.nickName;
  payload.displayName = profile.displayName;
  payload.preferredLanguage = profile.preferredLanguage;
  payload.gender = profile.gender;
  payload.email = draft.email.address;
  if (draft.phone !== undefined) payload.phone = draft.phone.number;
  if (encodedHash !== undefined) {
    payload.encodedHash = encodedHash;
    payload.changeRequired = draft.password?.changeRequired === true;
  }
  if (fingerprint !== undefined) payload.importFingerprint = fingerprint;
  return payload as HumanAdded;
}

/**
 * A new user's decision, shared by both creations: the user id (generated when the request has
 * none, and drawn again if another user took it meanwhile), the rules against storage, then every
 * event, claim and notification of one append.
 */
export async function decideCreation<TResponse>(spec: CreationSpec<TResponse>, input: DecideInput<UserDraft>): Promise<Result<Decision<TResponse>, ErrorBody>> {
  const { ports, parsed: draft, organization } = input;
  const requested = draft.userId;
  let userId: Result<string, ErrorBody>;
  let claims: UniqueClaim[];
  const domain = usernameDomain(draft.username);
  // Without an identity provider or a domain in the username, the directory has nothing to say
  // against the user, and the append checks the claims: no lookup, and no frame waiting for one.
  const asksDirectory = draft.idpLinks.length > 0 || domain !== undefined;
  for (let draw = 1; ; draw++) {
    const drawn = requested !== undefined ? ok(requested) : callPortNow("id generator", ports.logger, () => ports.ids.next());
    userId = drawn instanceof Promise ? await drawn : drawn;
    if (userId.isErr()) return err(userId.error);
    claims = userClaims(userId.value, draft, organization);
    if (!asksDirectory) break;
    const rules = await checkCreationRules(ports, draft, domain, organization, claims, spec.usernameField(input), requested !== undefined);
    if (rules.isOk()) break;
    if (rules.error !== "user-id-taken") return err(rules.error);
    if (requested !== undefined) return err(alreadyExists("user_id"));
    // A generated id that is taken is drawn again: the caller never asked for it, so it is never a
    // 6; once the draws run out the answer is the one a write that keeps losing its race gets.
    if (draw >= MAX_ID_DRAWS) return err(aborted());
  }
  if (requested === undefined && input.attempt > 1) {
    const taken = await heldBesidesId(ports, claims);
    if (taken !== undefined) return err(taken);
  }
  const stored = storedPasswordHash(ports, draft);
  const encodedHash = stored instanceof Promise ? await stored : stored;
  if (encodedHash.isErr()) return err(encodedHash.error);
  const totpSecret = draft.totpSecret === undefined ? undefined : await encryptSecret(draft.totpSecret, ports.keys, ports.random);
  const plan = planCreation(ports, spec, input, userId.value, encodedHash.value, totpSecret);
  if (plan.isErr()) return err(plan.error);
  const { events, notifications, extras } = plan.value;
  return ok({
    userId: userId.value,
    events,
    claims,
    notifications,
    respond(facts) {
      return ok(spec.respond(facts, extras));
    },
    // The caller never asked for a generated id, so another user holding it is no answer: draw again.
    onClaimHeld(conflict) {
      return conflict.kind === "user_id" && requested === undefined ? "retry" : alreadyExists(conflict.kind);
    },
  });
}
