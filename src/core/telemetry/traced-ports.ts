import type { Directory } from "../../ports/directory.js";
import type { PasswordHashing } from "../../ports/password-hashing.js";
import type { Telemetry, TelemetryAttributes } from "../../ports/telemetry.js";
import type { AppendOutcome, UniqueClaim, UserAppend, UserLog } from "../../ports/user-log.js";

// Each storage call of the user log and the directory, and each password hash, as a child span of the operation in progress, made once per
// ports (in resolvePorts) so that the core calls its ports as before. Attributes are counts and
// outcomes only: claims and events carry usernames and emails, and never reach a span.

const NONE: TelemetryAttributes = {};

function appendAttributes(append: UserAppend): TelemetryAttributes {
  return { "human_users.events": append.events.length, "human_users.claims": append.claims.length, "human_users.notifications": append.notifications.length };
}

function outcomeAttributes(outcome: AppendOutcome): TelemetryAttributes {
  if (outcome.ok) return { "human_users.outcome": "ok" };
  return outcome.reason === "claim-held" ? { "human_users.outcome": outcome.reason, "human_users.claim.kind": outcome.conflict.kind } : { "human_users.outcome": outcome.reason };
}

/** Notifications written by the appends that went through: the backlog grows by them. */
function countWritten(telemetry: Telemetry, appends: readonly UserAppend[], outcomes: readonly AppendOutcome[]): void {
  let written = 0;
  outcomes.forEach((outcome, index) => {
    if (outcome.ok) written += appends[index]?.notifications.length ?? 0;
  });
  if (written > 0) telemetry.count("human_users.outbox.backlog", written, NONE);
}

export function tracedDirectory(directory: Directory, telemetry: Telemetry): Directory {
  return {
    findOrganization: (id) => telemetry.span("directory.findOrganization", NONE, () => directory.findOrganization(id)),
    findOrganizationByDomain: (domain) => telemetry.span("directory.findOrganizationByDomain", NONE, () => directory.findOrganizationByDomain(domain)),
    findIdentityProvider: (id) => telemetry.span("directory.findIdentityProvider", NONE, () => directory.findIdentityProvider(id)),
  };
}

export function tracedUserLog(userLog: UserLog, telemetry: Telemetry): UserLog {
  const appendNewUsers = userLog.appendNewUsers?.bind(userLog);
  const findClaimHolders = userLog.findClaimHolders?.bind(userLog);
  return {
    findHeldClaims: (claims) =>
      telemetry.span("userLog.findHeldClaims", { "human_users.claims": claims.length }, async (span) => {
        const held = await userLog.findHeldClaims(claims);
        span.setAttributes({ "human_users.claims.held": held.length });
        return held;
      }),
    append: (append) =>
      telemetry.span("userLog.append", appendAttributes(append), async (span) => {
        const outcome = await userLog.append(append);
        span.setAttributes(outcomeAttributes(outcome));
        countWritten(telemetry, [append], [outcome]);
        return outcome;
      }),
    ...(appendNewUsers === undefined
      ? {}
      : {
          appendNewUsers: (appends: readonly UserAppend[]) =>
            telemetry.span("userLog.appendNewUsers", { "human_users.appends": appends.length }, async (span) => {
              const outcomes = await appendNewUsers(appends);
              span.setAttributes({ "human_users.written": outcomes.filter((outcome) => outcome.ok).length });
              countWritten(telemetry, appends, outcomes);
              return outcomes;
            }),
        }),
    ...(findClaimHolders === undefined
      ? {}
      : {
          findClaimHolders: (claims: readonly UniqueClaim[]) =>
            telemetry.span("userLog.findClaimHolders", { "human_users.claims": claims.length }, async (span) => {
              const holders = await findClaimHolders(claims);
              span.setAttributes({ "human_users.claims.held": holders.length });
              return holders;
            }),
        }),
    loadEvents: (userId) =>
      telemetry.span("userLog.loadEvents", NONE, async (span) => {
        const events = await userLog.loadEvents(userId);
        span.setAttributes({ "human_users.events": events.length });
        return events;
      }),
    // The claim names a user: only whether somebody holds it reaches the span.
    findClaimHolder: (claim) =>
      telemetry.span("userLog.findClaimHolder", { "human_users.claim.kind": claim.kind }, async (span) => {
        const holder = await userLog.findClaimHolder(claim);
        span.setAttributes({ "human_users.claim.held": holder !== undefined });
        return holder;
      }),
    queryUsers: (query) =>
      telemetry.span("userLog.queryUsers", { "human_users.limit": query.limit }, async (span) => {
        const page = await userLog.queryUsers(query);
        span.setAttributes({ "human_users.total": page.totalResult, "human_users.users": page.users.length });
        return page;
      }),
  };
}

export function tracedPasswords(passwords: PasswordHashing, telemetry: Telemetry): PasswordHashing {
  return {
    hash: (password) => telemetry.span("passwords.hash", NONE, () => passwords.hash(password)),
    ready: () => passwords.ready(),
    // Synchronous and cheap: a parse of the encoded hash, not worth a span.
    refusalOf: (encoded) => passwords.refusalOf(encoded),
    maxPasswordBytes: passwords.maxPasswordBytes,
    verify: (encoded, password) =>
      telemetry.span("passwords.verify", NONE, async (span) => {
        const checked = await passwords.verify(encoded, password);
        span.setAttributes(checked.isOk() ? { "human_users.valid": checked.value.valid } : { "human_users.code": checked.error.code });
        return checked;
      }),
  };
}
