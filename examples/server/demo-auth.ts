// The example server's stand-in for real authentication: one shared bearer token, whose holder is
// an instance administrator. Real hosts verify their own tokens or sessions in `authenticate`.
import { timingSafeEqual } from "node:crypto";
import type { Organization, Requester } from "../../src/index.js";
import type { IncomingMessage } from "node:http";
import type { Authenticate } from "../../src/http/index.js";

/** The organization the demo requester belongs to; users land here unless a request names another. */
export const DEMO_ORGANIZATION: Organization = { id: "demo-org", domains: [{ domain: "demo.localhost", verified: true }] };

const DEMO_REQUESTER: Requester = { userId: "demo-admin", orgId: DEMO_ORGANIZATION.id, instanceAdmin: true };

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function demoTokenAuthentication(token: string): Authenticate<IncomingMessage> {
  return (request) => {
    const header = request.headers.authorization ?? "";
    const [scheme = "", presented = ""] = header.split(" ", 2);
    return scheme.toLowerCase() === "bearer" && sameText(presented, token) ? DEMO_REQUESTER : undefined;
  };
}
