import type { Directory } from "../../ports/directory.js";
import type { UniqueClaim, UserLog } from "../../ports/user-log.js";
import { claimKey } from "../claims.js";
import { lowerAscii } from "../rules/domain-name.js";

/** Entries kept per lookup before the cache starts over, so memory stays bounded on any input. */
const CACHE_LIMIT = 10_000;
/** Claims asked in one coalesced `findHeldClaims` call at most. */
const COALESCE_LIMIT = 2_000;

/** Remembers each answer (the promise, so parallel askers share one call); a failed call is forgotten. */
function cached<T>(lookup: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const answers = new Map<string, Promise<T>>();
  return (key) => {
    let answer = answers.get(key);
    if (answer === undefined) {
      if (answers.size >= CACHE_LIMIT) answers.clear();
      answer = lookup(key);
      answers.set(key, answer);
      answer.catch(() => answers.delete(key));
    }
    return answer;
  };
}

interface WaitingAsk {
  readonly claims: readonly UniqueClaim[];
  resolve(held: readonly UniqueClaim[]): void;
  reject(cause: unknown): void;
}

/**
 * `findHeldClaims` asked by many users being prepared at once becomes one call per turn of the
 * event loop: one round trip for a whole wave of users instead of one each.
 */
function coalesced(findHeldClaims: UserLog["findHeldClaims"]): UserLog["findHeldClaims"] {
  let waiting: WaitingAsk[] = [];
  let waitingClaims = 0;

  function flush(): void {
    const asks = waiting;
    waiting = [];
    waitingClaims = 0;
    if (asks.length === 0) return;
    const unique = new Map<string, UniqueClaim>();
    for (const ask of asks) for (const claim of ask.claims) unique.set(claimKey(claim), claim);
    findHeldClaims([...unique.values()]).then(
      (held) => {
        const heldKeys = new Set(held.map(claimKey));
        for (const ask of asks) ask.resolve(ask.claims.filter((claim) => heldKeys.has(claimKey(claim))));
      },
      (cause: unknown) => {
        for (const ask of asks) ask.reject(cause);
      },
    );
  }

  return (claims) =>
    new Promise((resolve, reject) => {
      if (waiting.length === 0) setTimeout(flush, 0);
      waiting.push({ claims, resolve, reject });
      waitingClaims += claims.length;
      if (waitingClaims >= COALESCE_LIMIT) flush();
    });
}

/**
 * The lookups of one bulk import: organizations, domains and identity providers are looked up once
 * per import (they are not expected to change while it runs), and claim lookups are coalesced.
 * Appends go straight to the user log.
 */
export function bulkLookups(directory: Directory, userLog: UserLog): { readonly directory: Directory; readonly userLog: UserLog } {
  const findOrganization = cached((id) => directory.findOrganization(id));
  const findOrganizationByDomain = cached((domain) => directory.findOrganizationByDomain(lowerAscii(domain)));
  const findIdentityProvider = cached((id) => directory.findIdentityProvider(id));
  const findClaimHolders = userLog.findClaimHolders?.bind(userLog);
  return {
    directory: { findOrganization, findOrganizationByDomain, findIdentityProvider },
    userLog: {
      findHeldClaims: coalesced((claims) => userLog.findHeldClaims(claims)),
      append: (request) => userLog.append(request),
      loadEvents: (userId) => userLog.loadEvents(userId),
      findClaimHolder: (claim) => userLog.findClaimHolder(claim),
      ...(findClaimHolders === undefined ? {} : { findClaimHolders }),
      queryUsers: (query) => userLog.queryUsers(query),
    },
  };
}
