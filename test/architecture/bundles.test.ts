import { describe, expect, it } from "vitest";
import { bundleFacts, ENTRY_IMPORTS } from "./bundle.js";

describe("what an import pulls in", () => {
  it("verifyPassword from human-users/passwords brings no phone metadata, otpauth or valibot", async () => {
    const facts = await bundleFacts(ENTRY_IMPORTS.passwords);
    expect(facts.packages).toEqual(["@noble/hashes", "neverthrow"]);
  }, 30_000);

  it("the root entry is what brings them", async () => {
    const facts = await bundleFacts(ENTRY_IMPORTS.root);
    expect(facts.packages).toEqual(expect.arrayContaining(["libphonenumber-js", "valibot", "neverthrow"]));
  }, 30_000);

  it("openTelemetry from human-users/otel brings no package, not even @opentelemetry/api: the host passes its own", async () => {
    const facts = await bundleFacts(ENTRY_IMPORTS.otel);
    expect(facts.packages).toEqual([]);
  }, 30_000);
});
