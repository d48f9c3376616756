// `queryUsers` over listings held in memory: the filter, the order and the page, as the SQL store
// answers them (texts compared by code points, as PostgreSQL's collation "C" compares UTF-8 bytes).
import { LISTED_STATE_ORDER } from "../../core/users/user-listing.js";
import type { ListingSortField, ListingTextField, TextMatch, UserFilter, UserListing, UserPage, UserQuery } from "../../ports/user-listing.js";

/** Negative, 0 or positive as `a` sorts before, with or after `b` by code points (not UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const left = a.charCodeAt(index);
    const right = b.charCodeAt(index);
    if (left === right) continue;
    // A surrogate starts a code point beyond U+FFFF, which sorts after every single unit, even
    // the units above the surrogate range (U+E000 to U+FFFF) that it is smaller than.
    const leftSurrogate = left >= 0xd800 && left <= 0xdfff;
    const rightSurrogate = right >= 0xd800 && right <= 0xdfff;
    if (leftSurrogate !== rightSurrogate) return leftSurrogate ? 1 : -1;
    return left - right;
  }
  return a.length - b.length;
}

function textOf(listing: UserListing, field: ListingTextField, folded: boolean): string {
  if (field === "username") return folded ? listing.usernameFolded : listing.username;
  if (field === "email") return folded ? listing.emailFolded : listing.email;
  return folded ? listing.displayNameFolded : listing.displayName;
}

function matches(text: string, match: TextMatch, value: string): boolean {
  switch (match) {
    case "equals":
      return text === value;
    case "startsWith":
      return text.startsWith(value);
    case "contains":
      return text.includes(value);
    case "endsWith":
      return text.endsWith(value);
  }
}

export function filterMatches(filter: UserFilter, listing: UserListing): boolean {
  if ("text" in filter) return matches(textOf(listing, filter.text, filter.ignoreCase), filter.match, filter.value);
  if ("orgIds" in filter) return filter.orgIds.includes(listing.orgId);
  if ("userIds" in filter) return filter.userIds.includes(listing.userId);
  if ("states" in filter) return filter.states.includes(listing.state);
  if ("all" in filter) return filter.all.every((part) => filterMatches(part, listing));
  if ("any" in filter) return filter.any.some((part) => filterMatches(part, listing));
  return !filterMatches(filter.not, listing);
}

/** Each sortable text with its folded copy, which sorts first. */
const FOLDED: Readonly<Record<Exclude<ListingSortField, "userId" | "state" | "createdAt">, keyof UserListing & `${string}Folded`>> = {
  username: "usernameFolded",
  givenName: "givenNameFolded",
  familyName: "familyNameFolded",
  nickName: "nickNameFolded",
  displayName: "displayNameFolded",
  email: "emailFolded",
};

function compareBy(field: ListingSortField, a: UserListing, b: UserListing): number {
  switch (field) {
    case "userId":
      return 0;
    case "state":
      return LISTED_STATE_ORDER.indexOf(a.state) - LISTED_STATE_ORDER.indexOf(b.state);
    case "createdAt":
      return Date.parse(a.createdAt) - Date.parse(b.createdAt);
    default:
      return compareCodePoints(a[FOLDED[field]], b[FOLDED[field]]) || compareCodePoints(a[field], b[field]);
  }
}

/** The page `query` asks for among `listings`. */
export function queryListings(listings: Iterable<UserListing>, query: UserQuery): UserPage {
  const found: UserListing[] = [];
  for (const listing of listings) if (filterMatches(query.filter, listing)) found.push(listing);
  const direction = query.ascending ? 1 : -1;
  found.sort((a, b) => direction * (compareBy(query.sortBy, a, b) || compareCodePoints(a.userId, b.userId)));
  return { totalResult: found.length, users: found.slice(query.offset, query.offset + query.limit) };
}
