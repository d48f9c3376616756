// `npm run example:import`: imports one user from another system, with the bcrypt hash that system
// kept and an email it had already verified, and prints the response body (the JSON the reference
// server's `POST /management/v1/users/human/_import` answers). A verified email and a password
// mean no initialization mail is needed; the notes after the body say so on stderr.
import { httpStatus, importHumanUser, memoryMailer, memoryStore, systemClock, type Ports } from "../../src/index.js";
import { verifyPassword } from "../../src/passwords/index.js";

// bcrypt (cost 10) of "Correct-Horse-Battery-9", as a legacy user table would hold it.
const legacyHash = "$2b$10$vqoNd.b2bHxBSaPKQ6ejUu/BlbsKMZrUmGktg5LKe/pCdM5wduErq";

const storage = memoryStore({ organizations: [{ id: "acme", domains: [{ domain: "acme.example", verified: true }] }] });
const mailer = memoryMailer();
const ports: Ports = { storage, mailer, clock: systemClock };

// The body as a client of the reference server would send it (snake_case works as well).
const request = {
  userName: "ada",
  profile: { firstName: "Ada", lastName: "Lovelace", preferredLanguage: "en-GB" },
  email: { email: "ada@acme.example", isEmailVerified: true },
  hashedPassword: { value: legacyHash },
};

// The caller, as the host's authentication found it; `orgId` is the organization header.
const context = { requester: { userId: "importer", orgId: "acme" }, orgId: "acme", origin: "https://id.acme.example" };

const result = await importHumanUser(ports, request, context);

if (result.isErr()) {
  console.error(`HTTP ${httpStatus(result.error.code)}`, JSON.stringify(result.error, null, 2));
  process.exitCode = 1;
} else {
  console.log(JSON.stringify(result.value, null, 2));
  const verification = await verifyPassword(legacyHash, "Correct-Horse-Battery-9");
  const verifies = verification.isOk() && verification.value.valid;
  console.error(`The old password still signs in: ${verifies}. Mails sent: ${mailer.sent.length}.`);
}
