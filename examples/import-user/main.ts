// `npm run example:import`: imports one user from another system, with the bcrypt hash that system
// kept and an email it had already verified, and prints the answer body (what ZITADEL's
// `POST /management/v1/users/human/_import` answers). Then it reads the stored hash back and logs
// the user in with checkPassword, so what it shows is what the store holds, not what was sent.
// A verified email and a password mean no initialization mail; the notes go to stderr.
import { checkPassword, foldUser, httpStatus, importHumanUser, memoryMailer, memoryStore, systemClock, type Ports } from "../../src/index.js";

// bcrypt (cost 10) of "Correct-Horse-Battery-9", as a legacy user table would hold it.
const legacyHash = "$2b$10$vqoNd.b2bHxBSaPKQ6ejUu/BlbsKMZrUmGktg5LKe/pCdM5wduErq";

const storage = memoryStore({ organizations: [{ id: "acme", domains: [{ domain: "acme.example", verified: true }] }] });
const mailer = memoryMailer();
const ports: Ports = { storage, mailer, clock: systemClock };

// The body as a client of ZITADEL would send it (snake_case works as well).
const request = {
  userName: "ada",
  profile: { firstName: "Ada", lastName: "Lovelace", preferredLanguage: "en-GB" },
  email: { email: "ada@acme.example", isEmailVerified: true },
  hashedPassword: { value: legacyHash },
};

// The caller, as the host's authentication found it; `orgId` is the organization header.
const context = { requester: { userId: "importer", orgId: "acme" }, orgId: "acme", origin: "https://id.acme.example" };

/** The password hash the store holds for the user, read back from its events. */
async function storedHash(userId: string): Promise<string | undefined> {
  return foldUser(await storage.userLog.loadEvents(userId))?.password?.encodedHash;
}

function describeHash(hash: string | undefined): string {
  if (hash === legacyHash) return "the bcrypt hash as it was sent";
  if (hash?.startsWith("$scrypt$") === true) return "an upgraded $scrypt$ hash";
  return hash === undefined ? "no hash" : "another hash";
}

const result = await importHumanUser(ports, request, context);

if (result.isErr()) {
  console.error(`HTTP ${httpStatus(result.error.code)}`, JSON.stringify(result.error, null, 2));
  process.exitCode = 1;
} else {
  console.log(JSON.stringify(result.value, null, 2));
  const { userId } = result.value;
  const before = await storedHash(userId);
  const login = await checkPassword(ports, { loginName: "ada", password: "Correct-Horse-Battery-9" });
  const after = await storedHash(userId);
  console.error(
    `Stored: ${describeHash(before)}. checkPassword with the old password: ${login.isOk() ? "ok" : `refused (${login.error.message})`}. ` +
      `Stored after the login: ${describeHash(after)}. Mails sent: ${mailer.sent.length}.`,
  );
}
