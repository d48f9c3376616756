// The import example (examples/import-user) runs and prints exactly the response body.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

describe("examples/import-user", () => {
  it("imports Ada with her bcrypt hash and verified email, prints the body, reads the stored hash back, logs her in with it, and sends no mail", async () => {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "examples/import-user/main.ts"], { timeout: 30_000 });

    const body: unknown = JSON.parse(stdout);
    const date = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/;
    expect(body).toEqual({
      userId: expect.stringMatching(/^\d{34}$/),
      details: { sequence: "2", creationDate: expect.stringMatching(date), changeDate: expect.stringMatching(date), resourceOwner: "acme" },
    });
    const { details } = body as { details: { creationDate: string; changeDate: string } };
    expect(details.changeDate).toBe(details.creationDate);
    // What the store holds, not the hash the example sent: the login goes through checkPassword.
    expect(stderr).toBe(
      "Stored: the bcrypt hash as it was sent. checkPassword with the old password: ok. Stored after the login: an upgraded $scrypt$ hash. Mails sent: 0.\n",
    );
  });
});
