// The IDNA spellings of a domain are asked of the host's directory, which compares domains
// ignoring case in its own way: a spelling that differs from the one given in more than ASCII
// case may be one the directory did not match, so it is asked too.
import { describe, expect, it } from "vitest";
import { idnDirectory } from "../../src/core/idn-directory.js";
import { lowerAscii } from "../../src/core/rules/domain-name.js";
import type { Directory, Organization } from "../../src/ports/directory.js";

/** A directory that lowers only ASCII letters, as PostgreSQL's `lower()` does under the "C" collation, and records what it was asked. */
function asciiCaseDirectory(organizations: readonly Organization[]): Directory & { readonly asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    findOrganization: async (id) => organizations.find((organization) => organization.id === id),
    async findOrganizationByDomain(domain) {
      asked.push(domain);
      return organizations.find((organization) => organization.domains.some((entry) => entry.verified && lowerAscii(entry.domain) === lowerAscii(domain)));
    },
    findIdentityProvider: async () => undefined,
  };
}

// "i" followed by U+0307 COMBINING DOT ABOVE: what JavaScript and case folding make of "İ".
const DOTTED = "i\u0307zmi\u0307r.test";
const IZMIR = { id: "izmir", domains: [{ domain: DOTTED, verified: true }] };

describe("idnDirectory", () => {
  it("asks for the folded spelling when it differs from the one given in more than ASCII case", async () => {
    const directory = asciiCaseDirectory([IZMIR]);
    expect(await idnDirectory(directory).findOrganizationByDomain("İZMİR.test")).toEqual(IZMIR);
    expect(directory.asked).toEqual(["İZMİR.test", DOTTED]);
  });

  it("asks once for a spelling that differs from the one given only in ASCII case", async () => {
    const directory = asciiCaseDirectory([]);
    expect(await idnDirectory(directory).findOrganizationByDomain("ACME.Test")).toBeUndefined();
    expect(directory.asked).toEqual(["ACME.Test"]);
    directory.asked.length = 0;
    expect(await idnDirectory(directory).findOrganizationByDomain("BÜCHER.test")).toBeUndefined();
    // Folded: bücher.test, then its A-label spelling; never "bücher.test" twice.
    expect(directory.asked).toEqual(["BÜCHER.test", "bücher.test", "xn--bcher-kva.test"]);
  });
});
