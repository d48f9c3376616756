import type { Directory, IdentityProvider, Organization } from "../ports/directory.js";
import { lowerAscii } from "./rules/domain-name.js";

/** How long a directory answer is used again by default: a change reaches every operation within this. */
export const DEFAULT_DIRECTORY_CACHE_MS = 5_000;
/** Answers kept per lookup before the cache starts over, so memory stays bounded. */
const ENTRIES = 1_000;

interface Entry<T> {
  readonly answer: Promise<T>;
  readonly until: number;
}

function cachedLookup<T>(lookup: (key: string) => Promise<T>, lifetimeMs: number, now: () => number): (key: string) => Promise<T> {
  const entries = new Map<string, Entry<T>>();
  return (key) => {
    const at = now();
    const known = entries.get(key);
    if (known !== undefined && known.until > at) return known.answer;
    if (entries.size >= ENTRIES) entries.clear();
    const answer = lookup(key);
    entries.set(key, { answer, until: at + lifetimeMs });
    // A failed lookup is not remembered: the next caller asks again.
    answer.catch(() => {
      if (entries.get(key)?.answer === answer) entries.delete(key);
    });
    return answer;
  };
}

/**
 * The directory with each answer (found or not) used again for `lifetimeMs`, measured on `now`
 * (real time, not the clock port's: a fixed clock must not freeze the cache). Organizations and
 * providers change rarely, and every user write reads them: this saves those round trips, and a
 * deleted organization or an unverified domain is seen within `lifetimeMs`.
 */
export function cachedDirectory(directory: Directory, lifetimeMs: number, now: () => number = () => performance.now()): Directory {
  if (!(lifetimeMs > 0)) return directory;
  const byId = cachedLookup<Organization | undefined>((id) => directory.findOrganization(id), lifetimeMs, now);
  const byDomain = cachedLookup<Organization | undefined>((domain) => directory.findOrganizationByDomain(domain), lifetimeMs, now);
  const providers = cachedLookup<IdentityProvider | undefined>((id) => directory.findIdentityProvider(id), lifetimeMs, now);
  return {
    findOrganization: byId,
    // Domains compare ignoring case: one entry for every spelling. Only ASCII letters are lowered
    // here, as every store lowers them alike; the others reach the store as given, since stores
    // lower some differently (İ is i in PostgreSQL, i and a combining dot in JavaScript).
    findOrganizationByDomain: (domain) => byDomain(lowerAscii(domain)),
    findIdentityProvider: providers,
  };
}
