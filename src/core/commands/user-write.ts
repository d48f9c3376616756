import { err, ok, type Result } from "neverthrow";
import type { CodeKind } from "../../ports/config.js";
import type { NotificationKind, Organization, OutboxNotification, UniqueClaim, UserWrite } from "../../ports/storage.js";
import type { EventDraft } from "../events/user-events.js";
import { sequenceEvents } from "../events/user-events.js";
import type { JsonObject } from "../../shared/json.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import { encodeBase64 } from "../../shared/base64.js";
import { parseUrlTemplate, renderUrlTemplate, type UrlTemplate } from "../rules/url-template.js";
import { codeSpec, generateCode, hashedCode } from "../secrets/codes.js";
import { encryptSecret } from "../secrets/encrypt.js";
import type { UserDraft } from "../user-draft.js";
import { durationSeconds, rfc3339 } from "../wire/timestamp.js";

export type Operation = "create" | "import";

export interface WriteInput {
  readonly operation: Operation;
  readonly draft: UserDraft;
  readonly organization: Organization;
  readonly userId: string;
  readonly claims: readonly UniqueClaim[];
  /** The stored password hash: the hasher's output for a plain password, the imported one otherwise. */
  readonly encodedHash: string | undefined;
  readonly now: Date;
  /** Public base URL, without a trailing slash. */
  readonly origin: string;
}

export interface PlannedWrite {
  readonly write: UserWrite;
  readonly emailCode?: string;
  readonly phoneCode?: string;
  readonly passwordlessLink?: { readonly link: string; readonly lifetimeSeconds: number };
}

interface IssuedCode {
  readonly plain: string;
  /** The event payload part: keyed hash and validity, never the code. */
  readonly stored: JsonObject;
  readonly expiresAt: string;
  readonly lifetimeSeconds: number;
}

const DEFAULT_TEMPLATES = {
  verification: "/ui/login/mail/verification?userID={{.UserID}}&code={{.Code}}&orgID={{.OrgID}}",
  initialization: "/ui/login/user/init?userID={{.UserID}}&code={{.Code}}&orgID={{.OrgID}}",
} as const;

/** Builds every event, claim and notification of one new user: the single atomic write. */
export async function planUserWrite(ports: ResolvedPorts, input: WriteInput): Promise<Result<PlannedWrite, string>> {
  const { draft, organization, userId, now, operation } = input;
  const { config } = ports;
  const createdAt = rfc3339(now);
  const events: EventDraft[] = [{ type: "user.human.added", payload: addedPayload(draft, input.encodedHash) }];
  const notifications: OutboxNotification[] = [];
  const planned: { emailCode?: string; phoneCode?: string; passwordlessLink?: NonNullable<PlannedWrite["passwordlessLink"]> } = {};

  const issue = (kind: CodeKind): IssuedCode => {
    const spec = codeSpec(config, kind);
    const plain = generateCode(spec, ports.random);
    const expiry = durationSeconds(spec.lifetimeSeconds);
    return {
      plain,
      stored: { code: hashedCode(plain, ports.keys), expiry },
      expiresAt: rfc3339(new Date(now.getTime() + spec.lifetimeSeconds * 1000)),
      lifetimeSeconds: spec.lifetimeSeconds,
    };
  };
  const notify = (kind: NotificationKind, recipient: string, code: IssuedCode, link: string) =>
    notifications.push({
      id: ports.ids.next(),
      kind,
      userId,
      orgId: organization.id,
      recipient,
      code: code.plain,
      link,
      locale: draft.profile.preferredLanguage,
      displayName: draft.profile.displayName,
      username: draft.username,
      createdAt,
      expiresAt: code.expiresAt,
    });
  const link = (template: UrlTemplate, code: string) => renderUrlTemplate(template, { UserID: userId, Code: code, OrgID: organization.id });
  const configured = (given: string | undefined, path: string): Result<UrlTemplate, string> =>
    parseUrlTemplate(given ?? `${input.origin}${path}`).mapErr((problem) => `link template ${problem}`);

  // Email: verified, or a verification code (A), or an initialization code (B).
  const { email } = draft;
  if (email.verified) events.push({ type: "user.human.email.verified", payload: {} });
  if (operation === "create" && !email.verified) {
    const code = issue("email");
    const returned = email.codeDelivery === "return";
    events.push({ type: "user.human.email.code.added", payload: { ...code.stored, ...(returned ? { codeReturned: true } : {}) } });
    if (returned) planned.emailCode = code.plain;
    else {
      const template = email.urlTemplate !== undefined ? ok(email.urlTemplate) : configured(config?.emailVerificationUrlTemplate, DEFAULT_TEMPLATES.verification);
      if (template.isErr()) return err(template.error);
      notify("email.verification", email.address, code, link(template.value, code.plain));
    }
  }
  if (operation === "import" && (!email.verified || draft.password === undefined)) {
    const code = issue("init");
    events.push({ type: "user.human.initialization.code.added", payload: code.stored });
    const template = configured(config?.initializationUrlTemplate, DEFAULT_TEMPLATES.initialization);
    if (template.isErr()) return err(template.error);
    notify("email.initialization", email.address, code, link(template.value, code.plain));
  }

  const { phone } = draft;
  if (phone !== undefined) {
    if (phone.verified) events.push({ type: "user.human.phone.verified", payload: {} });
    else {
      const code = issue("phone");
      const returned = phone.codeDelivery === "return";
      events.push({ type: "user.human.phone.code.added", payload: { ...code.stored, ...(returned ? { codeReturned: true } : {}) } });
      if (returned) planned.phoneCode = code.plain;
      else if (ports.sms !== undefined) notify("phone.verification", phone.number, code, "");
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
  if (draft.totpSecret !== undefined) {
    const secret = await encryptSecret(draft.totpSecret, ports.keys, ports.random);
    events.push({ type: "user.human.mfa.otp.added", payload: { secret } });
    events.push({ type: "user.human.mfa.otp.verified", payload: {} });
  }
  if (draft.passwordlessRegistration) {
    const code = issue("passwordless");
    const codeId = ports.ids.next();
    events.push({ type: "user.human.passwordless.initialization.code.added", payload: { id: codeId, ...code.stored } });
    // Percent-encoded as URL templates are (a space is %20, not the form encoding's +).
    const values = { userID: userId, orgID: organization.id, codeID: codeId, code: code.plain };
    const query = Object.entries(values).map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&");
    planned.passwordlessLink = { link: `${input.origin}/ui/login/login/passwordless/init?${query}`, lifetimeSeconds: code.lifetimeSeconds };
  }

  const write: UserWrite = {
    userId,
    orgId: organization.id,
    events: sequenceEvents(events, userId, organization.id, createdAt),
    claims: input.claims,
    notifications,
  };
  return ok({ write, ...planned });
}

function addedPayload(draft: UserDraft, encodedHash: string | undefined): JsonObject {
  const { profile } = draft;
  return {
    userName: draft.username,
    firstName: profile.givenName,
    lastName: profile.familyName,
    ...(profile.nickName !== "" ? { nickName: profile.nickName } : {}),
    displayName: profile.displayName,
    preferredLanguage: profile.preferredLanguage,
    gender: profile.gender,
    email: draft.email.address,
    ...(draft.phone !== undefined ? { phone: draft.phone.number } : {}),
    ...(encodedHash !== undefined ? { encodedHash, changeRequired: draft.password?.changeRequired === true } : {}),
  };
}
