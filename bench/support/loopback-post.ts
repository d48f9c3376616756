// A new user's creation request sent over loopback HTTP/1.1 through a keep-alive agent, for the
// HTTP benches: unique username and email each time, no password, the email code returned.
import { Agent, request as httpRequest } from "node:http";

let serial = 0;

export function newUserBody(): string {
  serial += 1;
  const email = `bench.user.${process.pid}.${serial}@demo.localhost`;
  return JSON.stringify({ profile: { givenName: "Bench", familyName: "User" }, email: { email, returnCode: {} } });
}

/** POSTs a new user to `path` on 127.0.0.1:`port` and resolves with the answer's status once it is read. */
export function postNewUser(agent: Agent, port: number, path: string, token: string): Promise<number> {
  const body = newUserBody();
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { agent, host: "127.0.0.1", port, path, method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), authorization: `Bearer ${token}` } },
      (incoming) => {
        incoming.resume();
        incoming.on("end", () => resolve(incoming.statusCode ?? 0));
        incoming.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}
