// `queryUsers` as one SQL statement: the filter becomes a WHERE clause with parameters, the sort an
// ORDER BY ending with the user id, and the count and the page come back in one round trip.
import { LISTED_STATE_ORDER } from "../../core/users/user-listing.js";
import type { ListingSortField, ListingTextField, UserFilter, UserQuery } from "../../ports/user-listing.js";
import { LISTING_SELECT } from "./listing-sql.js";

/** Parameters as they are numbered into the statement. */
export class Parameters {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const TEXT_COLUMNS: Readonly<Record<ListingTextField, readonly [plain: string, folded: string]>> = {
  username: ["username", "username_folded"],
  email: ["email", "email_folded"],
  displayName: ["display_name", "display_name_folded"],
};

const LAST_CODE_POINT = 0x10ffff;

/**
 * The smallest text after every text that starts with `prefix`, in code point order (collation
 * "C" compares UTF-8 bytes, which order as code points): the prefix with its last code point
 * raised by one, after dropping trailing U+10FFFF. Undefined when nothing is left: no upper bound.
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const codePoints = Array.from(prefix, (char) => char.codePointAt(0) ?? 0);
  while (codePoints.length > 0 && codePoints[codePoints.length - 1] === LAST_CODE_POINT) codePoints.pop();
  const last = codePoints.pop();
  if (last === undefined) return undefined;
  // The surrogates are no code points of text: after U+D7FF comes U+E000.
  const next = last === 0xd7ff ? 0xe000 : last + 1;
  return String.fromCodePoint(...codePoints, next);
}

/** JSON, so that both drivers pass a list alike (see statements.ts). */
function jsonList(values: readonly string[]): string {
  return JSON.stringify(values);
}

function inList(column: string, values: readonly string[], params: Parameters): string {
  if (values.length === 0) return "false";
  return `${column} = ANY (ARRAY(SELECT json_array_elements_text(${params.add(jsonList(values))}::json)))`;
}

/**
 * The condition for `filter`. A prefix is a range (`>=` and `<`), which a B-tree index answers in
 * a generic plan too (a LIKE pattern in a parameter is not indexable once the plan is generic).
 */
export function whereClause(filter: UserFilter, params: Parameters): string {
  if ("text" in filter) {
    const column = `l.${TEXT_COLUMNS[filter.text][filter.ignoreCase ? 1 : 0]}`;
    const value = filter.value;
    switch (filter.match) {
      case "equals":
        return `${column} = ${params.add(value)}`;
      case "startsWith": {
        if (value === "") return "true";
        const upper = prefixUpperBound(value);
        const lower = `${column} >= ${params.add(value)}`;
        return upper === undefined ? lower : `(${lower} AND ${column} < ${params.add(upper)})`;
      }
      case "contains":
        return `strpos(${column}, ${params.add(value)}) > 0`;
      case "endsWith": {
        const parameter = params.add(value);
        return `right(${column}, char_length(${parameter})) = ${parameter}`;
      }
    }
  }
  if ("orgIds" in filter) return inList("l.org_id", filter.orgIds, params);
  if ("userIds" in filter) return inList("l.user_id", filter.userIds, params);
  if ("states" in filter) return inList("l.state", filter.states, params);
  if ("all" in filter) return filter.all.length === 0 ? "true" : `(${filter.all.map((part) => whereClause(part, params)).join(" AND ")})`;
  if ("any" in filter) return filter.any.length === 0 ? "false" : `(${filter.any.map((part) => whereClause(part, params)).join(" OR ")})`;
  return `NOT (${whereClause(filter.not, params)})`;
}

/** Each sort's columns: a text by its folded copy first (indexed for three of them), then as given. */
const SORT_COLUMNS: Readonly<Record<ListingSortField, readonly string[]>> = {
  userId: [],
  username: ["l.username_folded", "l.username"],
  givenName: ["l.given_name_folded", "l.given_name"],
  familyName: ["l.family_name_folded", "l.family_name"],
  nickName: ["l.nick_name_folded", "l.nick_name"],
  displayName: ["l.display_name_folded", "l.display_name"],
  email: ["l.email_folded", "l.email"],
  state: [`array_position(ARRAY[${LISTED_STATE_ORDER.map((state) => `'${state}'`).join(", ")}], l.state)`],
  createdAt: ["l.created_at"],
};

function orderBy(query: UserQuery): string {
  const direction = query.ascending ? "ASC" : "DESC";
  return [...SORT_COLUMNS[query.sortBy], "l.user_id"].map((column) => `${column} ${direction}`).join(", ");
}

/**
 * How many users the filter finds, and the page: one row even for an empty page (its listing
 * columns NULL), so the count never needs a second round trip. The count is an uncorrelated
 * subquery, evaluated once; the page keeps its own plan, an index scan that stops at the limit.
 */
export function queryUsersStatement(query: UserQuery): { readonly text: string; readonly params: readonly unknown[] } {
  const params = new Parameters();
  const where = whereClause(query.filter, params);
  const limit = params.add(query.limit);
  const offset = params.add(query.offset);
  const text = `
SELECT found.total, page.* FROM (SELECT count(*) AS total FROM human_users_listings l WHERE ${where}) AS found
LEFT JOIN LATERAL (
  SELECT ${LISTING_SELECT} FROM human_users_listings l WHERE ${where}
  ORDER BY ${orderBy(query)} LIMIT ${limit} OFFSET ${offset}
) AS page ON true`;
  return { text, params: params.values };
}
