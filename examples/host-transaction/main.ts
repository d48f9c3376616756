// `npx tsx examples/host-transaction/main.ts`: a host application that keeps accounts of its own
// writes each account and its user in one transaction, on PGlite. Ann's sign-up commits both and
// then mails her code; Bob's account is refused by the host's own table, so his user is rolled
// back with it and he gets no mail.
import { PGlite } from "@electric-sql/pglite";
import { migratePglite, pgliteStore } from "../../src/adapters/pglite/index.js";
import { memoryMailer, systemClock, type Keys, type Ports } from "../../src/index.js";
import { signUp } from "./sign-up.js";

const db = new PGlite();
await migratePglite(db);
await db.exec("CREATE TABLE accounts (username text PRIMARY KEY, user_id text NOT NULL, plan text NOT NULL CHECK (plan IN ('free', 'pro')))");
const store = pgliteStore({ db });
await store.upsertOrganization({ id: "acme", domains: [{ domain: "acme.example", verified: true }] });

// A real host loads its keys from its secret store, so that codes still check after a restart.
const randomKey = () => crypto.getRandomValues(new Uint8Array(32));
const keys: Keys = { keyId: "example", codeHmacKey: randomKey(), encryptionKey: randomKey() };
const mailer = memoryMailer();
// `origin`: the public URL the links in mails start with.
const ports: Ports = { storage: store, mailer, clock: systemClock, keys, config: { origin: "https://id.acme.example" } };
const context = { requester: { userId: "signup-service", orgId: "acme" } };

for (const signup of [
  { username: "ann", email: "ann@acme.example", plan: "free" },
  { username: "bob", email: "bob@acme.example", plan: "platinum" },
]) {
  const outcome = await signUp(db, store, ports, context, signup);
  console.log(outcome.committed ? `${signup.username}: committed, ${outcome.mailsSent} mail sent after the commit` : `${signup.username}: rolled back (${outcome.reason})`);
}

const snapshot = await store.snapshot();
const usernames = snapshot.claims.filter((claim) => claim.kind === "username").map((claim) => claim.key);
const accounts = (await db.query<{ username: string }>("SELECT username FROM accounts ORDER BY username")).rows.map((row) => row.username);
console.log(`users: ${usernames.join(", ")}; accounts: ${accounts.join(", ")}; mails to: ${mailer.sent.map((mail) => mail.to).join(", ")}`);
await db.close();
