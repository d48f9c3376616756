// What the framework examples share: ports on the memory store (one organization, mail kept in
// memory) and a stand-in for the host's own authentication, one bearer token.
import { memoryMailer, memoryStore, systemClock, type Ports, type Requester } from "../../src/index.js";

export const DEMO_TOKEN = "example-token";

const ADMIN: Requester = { userId: "admin", orgId: "acme", instanceAdmin: true };

export function demoPorts(): Ports {
  return {
    storage: memoryStore({ organizations: [{ id: "acme", domains: [{ domain: "acme.test", verified: true }] }] }),
    mailer: memoryMailer(),
    clock: systemClock,
  };
}

/** The requester an Authorization header names; a real host checks its own sessions or tokens here. */
export function requesterFor(authorization: string | null | undefined): Requester | undefined {
  return authorization === `Bearer ${DEMO_TOKEN}` ? ADMIN : undefined;
}

export interface Started {
  readonly url: string;
  close(): Promise<void>;
}
