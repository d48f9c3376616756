// The main job on in-memory ports: create a user (createHumanUser), print the response body and the
// verification mail that was delivered. Run with `npm run demo`.
import { createHumanUser, memoryMailer, memoryStore, systemClock } from "../../src/index.js";

const storage = memoryStore({
  organizations: [{ id: "acme", domains: [{ domain: "acme.example", verified: true }] }],
});
const mailer = memoryMailer();
const ports = { storage, mailer, clock: systemClock };

// A body written for ZITADEL's POST /v2/users/human works unchanged.
const request = {
  username: "ann.lee",
  profile: { givenName: "Ann", familyName: "Lee", preferredLanguage: "en" },
  email: { email: "ann.lee@acme.example", sendCode: { urlTemplate: "https://app.acme.example/verify?user={{.UserID}}&code={{.Code}}" } },
  password: { password: "Corr3ct-Horse!" },
};
const context = { requester: { userId: "admin-1", orgId: "acme" }, origin: "https://id.acme.example" };

const result = await createHumanUser(ports, request, context);
if (result.isErr()) {
  console.error("createHumanUser failed:", JSON.stringify(result.error, null, 2));
  process.exit(1);
}

console.log("Response body (201 over HTTP):");
console.log(JSON.stringify(result.value, null, 2));

for (const mail of mailer.sent) {
  console.log(`\nDelivered mail ${mail.id} to ${mail.to}`);
  console.log(`Subject: ${mail.subject}\n`);
  console.log(mail.text);
}

// A body the contract refuses: every violation is reported at once, nothing is written.
const refused = await createHumanUser(ports, { profile: { givenName: "" }, email: { email: "not-an-address" } }, context);
console.log("An invalid request answers:");
console.log(JSON.stringify(refused._unsafeUnwrapErr(), null, 2));
