import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { memoryStore, type MemoryStore } from "../../src/adapters/memory/store.js";
import { smtpMailer, type SmtpMailer } from "../../src/adapters/smtp/mailer.js";
import { createHumanUser } from "../../src/operations/index.js";
import { deliverPendingNotifications } from "../../src/notifications/deliver.js";
import type { HumanUsersConfig } from "../../src/ports/config.js";
import type { Logger } from "../../src/ports/logger.js";
import { manualClock, recordingLogger, type ManualClock } from "./helpers.js";
import { readMail } from "./mime.js";
import { startSmtpServer, type TestSmtpServer } from "./smtp-server.js";

// createHumanUser end to end: the write, the immediate delivery attempt, and the outbox afterwards.

let server: TestSmtpServer;
let mailer: SmtpMailer;

beforeEach(async () => {
  server = await startSmtpServer();
  mailer = smtpMailer({ host: "127.0.0.1", port: server.port, ignoreTLS: true }, { from: "noreply@app.example.com" });
});

afterEach(async () => {
  mailer.close();
  await server.close();
});

const urlTemplate = "https://app.example.com/verify?user={{.UserID}}&code={{.Code}}&org={{ .OrgID }}";

interface Setting {
  readonly storage: MemoryStore;
  readonly clock: ManualClock;
  readonly logger: Logger & ReturnType<typeof recordingLogger>;
  readonly config: HumanUsersConfig;
}

function setting(config: HumanUsersConfig = {}): Setting {
  return {
    storage: memoryStore({ organizations: [{ id: "org 1", domains: [] }] }),
    clock: manualClock(),
    logger: recordingLogger(),
    config,
  };
}

async function createAda(ports: Setting, displayName = "Ada Lovelace") {
  const result = await createHumanUser(
    { ...ports, mailer },
    {
      profile: { givenName: "Ada", familyName: "Lovelace", displayName, preferredLanguage: "de" },
      email: { email: "ada@example.com", sendCode: { urlTemplate } },
    },
    { requester: { userId: "admin", orgId: "org 1" } },
  );
  return result._unsafeUnwrap().userId;
}

/** Runs the outbox at each retry time the store recorded until the notification is settled. */
async function retryUntilSettled(ports: Setting): Promise<void> {
  for (;;) {
    const [record] = ports.storage.notifications();
    if (record?.state !== "pending" || record.retryAt === undefined) return;
    ports.clock.set(new Date(record.retryAt));
    await deliverPendingNotifications({ ...ports, mailer });
  }
}

describe("createHumanUser with the SMTP mailer", () => {
  it("sends the verification mail at once, in the user's language, with the link made from the template", async () => {
    const ports = setting();
    const userId = await createAda(ports, "<script>alert(1)</script>");

    expect(server.accepted).toHaveLength(1);
    const received = server.accepted[0]!;
    const read = readMail(received.raw);
    const code = /Oder geben Sie diesen Code ein: ([A-Z0-9]{6})\n/.exec(read.text)?.[1] ?? "no code";
    const link = `https://app.example.com/verify?user=${userId}&code=${code}&org=org%201`;
    expect({ to: received.envelope.to, subject: read.headers.get("subject"), text: read.text }).toEqual({
      to: ["ada@example.com"],
      subject: "Bestätigen Sie Ihre E-Mail-Adresse",
      text: `Hallo <script>alert(1)</script>,

bitte bestätigen Sie Ihre E-Mail-Adresse über diesen Link:
${link}

Oder geben Sie diesen Code ein: ${code}

Der Code ist 1 Stunde gültig. Falls Sie dies nicht angefordert haben, können Sie diese Nachricht ignorieren.
`,
    });
    expect(read.html).toContain("<p>Hallo &lt;script&gt;alert(1)&lt;/script&gt;,</p>");
    expect(read.html).toContain(`<a href="${link.replaceAll("&", "&amp;")}">`);
    expect(read.html).not.toContain("<script>");
    expect(ports.storage.notifications().map((record) => [record.state, record.code, record.link])).toEqual([["delivered", "", ""]]);
  });

  it("delivers exactly once through a server that refuses three times", async () => {
    server.refuseNext(3, 421);
    const ports = setting();

    await createAda(ports);
    expect(server.accepted).toEqual([]);
    await retryUntilSettled(ports);

    expect(server.transmitted).toHaveLength(4);
    expect(server.accepted).toHaveLength(1);
    expect(ports.storage.notifications().map((record) => [record.state, record.attempts])).toEqual([["delivered", 3]]);
  });

  it("keeps the user when the server never accepts, and the notification ends dead and logged", async () => {
    server.refuseAlways(451);
    const ports = setting({ delivery: { maxAttempts: 4 } });

    const userId = await createAda(ports);
    await retryUntilSettled(ports);

    expect(server.transmitted).toHaveLength(4);
    expect(ports.storage.notifications().map((record) => [record.state, record.attempts, record.code])).toEqual([["dead", 4, ""]]);
    expect(ports.logger.entries.map((entry) => [entry.level, entry.fields?.["userId"]])).toEqual([
      ["warn", userId],
      ["warn", userId],
      ["warn", userId],
      ["error", userId],
      ["warn", userId],
    ]);
    expect((await ports.storage.userLog.loadEvents(userId)).map((event) => event.type)).toEqual([
      "user.human.added",
      "user.human.email.code.added",
    ]);
  });
});
