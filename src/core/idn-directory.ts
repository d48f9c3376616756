import type { Directory } from "../ports/directory.js";
import { canonicalDomain, domainSpellings, lowerAscii } from "./rules/domain-name.js";

/**
 * `directory`, with a domain found under any of its IDNA spellings: `bücher.test` and
 * `xn--bcher-kva.test` are one domain, whichever of them the host registered and whichever a
 * username or request names; so are `ＢÜCHER.test` and `bücher.test.`. A domain in plain ASCII,
 * without A-labels or a trailing dot, is looked up once, as given.
 */
export function idnDirectory(directory: Directory): Directory {
  return {
    findOrganization: (id) => directory.findOrganization(id),
    async findOrganizationByDomain(domain) {
      const found = await directory.findOrganizationByDomain(domain);
      if (found !== undefined) return found;
      // The canonical spelling too (full-width letters, a trailing dot), unless it differs only in
      // ASCII case: directories lower other letters each their own way (PostgreSQL under the "C"
      // collation not at all), so one that differs in a capital Ü or İ may not have been matched.
      const asked = lowerAscii(domain);
      for (const spelling of domainSpellings(canonicalDomain(domain)).filter((candidate) => candidate !== asked)) {
        const other = await directory.findOrganizationByDomain(spelling);
        if (other !== undefined) return other;
      }
      return undefined;
    },
    findIdentityProvider: (id) => directory.findIdentityProvider(id),
  };
}
