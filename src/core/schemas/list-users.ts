// The v2 `ListUsersRequest`: paging, the sorting column and the search queries, each checked with
// its path so that every violation is reported at once.
import { err, ok, type Result } from "neverthrow";
import type { ListedUserState, ListingSortField, ListingTextField, TextMatch } from "../../ports/user-listing.js";
import type { FieldViolation } from "../errors/index.js";
import type { UserFieldName } from "../responses.js";
import { textProblem } from "../rules/characters.js";
import { violation } from "../validation/violations.js";
import type { FieldTree } from "../wire/field-tree.js";
import { MAX_TEXT } from "./fields.js";

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1000;
/** Ids in one `inUserIdsQuery`. */
const MAX_USER_IDS = 1000;
/**
 * As in ZITADEL (`userQueryToQuery`: `level > 20` is refused, the request's own queries at level
 * 0): a query may sit 20 levels under the request's queries, 21 levels in all.
 */
const MAX_NESTING = 20;
const MAX_LEVELS = MAX_NESTING + 1;
/**
 * Queries in one request, nested ones included. Each is tested against every user a store scans
 * (the memory store, on the event loop), so the work is users times queries: 10,000 text queries
 * over 20,000 users held the event loop for seconds. A search form needs a handful.
 */
const MAX_QUERIES = 100;

export interface TextMethod {
  readonly match: TextMatch;
  readonly ignoreCase: boolean;
}

/** One search query, checked; `loginName` is resolved against the directory and the claims later. */
export type SearchQuery =
  | { readonly kind: "text"; readonly field: ListingTextField; readonly value: string; readonly method: TextMethod }
  | { readonly kind: "loginName"; readonly value: string; readonly method: TextMethod }
  | { readonly kind: "organization"; readonly orgId: string }
  | { readonly kind: "states"; readonly states: readonly ListedUserState[] }
  | { readonly kind: "userIds"; readonly userIds: readonly string[] }
  | { readonly kind: "and" | "or"; readonly queries: readonly SearchQuery[] }
  | { readonly kind: "not"; readonly query: SearchQuery };

export interface ListUsersParsed {
  readonly offset: number;
  readonly limit: number;
  readonly ascending: boolean;
  readonly sortingColumn: UserFieldName;
  readonly sortBy: ListingSortField;
  /** All must hold. */
  readonly queries: readonly SearchQuery[];
}

const TEXT_METHODS: readonly (readonly [TextMatch, boolean])[] = [
  ["equals", false],
  ["equals", true],
  ["startsWith", false],
  ["startsWith", true],
  ["contains", false],
  ["contains", true],
  ["endsWith", false],
  ["endsWith", true],
];
const TEXT_METHOD_NAMES = [
  "TEXT_QUERY_METHOD_EQUALS",
  "TEXT_QUERY_METHOD_EQUALS_IGNORE_CASE",
  "TEXT_QUERY_METHOD_STARTS_WITH",
  "TEXT_QUERY_METHOD_STARTS_WITH_IGNORE_CASE",
  "TEXT_QUERY_METHOD_CONTAINS",
  "TEXT_QUERY_METHOD_CONTAINS_IGNORE_CASE",
  "TEXT_QUERY_METHOD_ENDS_WITH",
  "TEXT_QUERY_METHOD_ENDS_WITH_IGNORE_CASE",
] as const;

const USER_STATE_NAMES = ["USER_STATE_UNSPECIFIED", "USER_STATE_ACTIVE", "USER_STATE_INACTIVE", "USER_STATE_DELETED", "USER_STATE_LOCKED", "USER_STATE_INITIAL"] as const;
const TYPE_NAMES = ["TYPE_UNSPECIFIED", "TYPE_HUMAN", "TYPE_MACHINE"] as const;
const FIELD_NAMES: readonly UserFieldName[] = [
  "USER_FIELD_NAME_UNSPECIFIED",
  "USER_FIELD_NAME_USER_NAME",
  "USER_FIELD_NAME_FIRST_NAME",
  "USER_FIELD_NAME_LAST_NAME",
  "USER_FIELD_NAME_NICK_NAME",
  "USER_FIELD_NAME_DISPLAY_NAME",
  "USER_FIELD_NAME_EMAIL",
  "USER_FIELD_NAME_STATE",
  "USER_FIELD_NAME_TYPE",
  "USER_FIELD_NAME_CREATION_DATE",
];

/** As in ZITADEL: unspecified sorts by user id, and every user is human, so type ties everywhere. */
const SORT_FIELDS: Readonly<Record<UserFieldName, ListingSortField>> = {
  USER_FIELD_NAME_UNSPECIFIED: "userId",
  USER_FIELD_NAME_USER_NAME: "username",
  USER_FIELD_NAME_FIRST_NAME: "givenName",
  USER_FIELD_NAME_LAST_NAME: "familyName",
  USER_FIELD_NAME_NICK_NAME: "nickName",
  USER_FIELD_NAME_DISPLAY_NAME: "displayName",
  USER_FIELD_NAME_EMAIL: "email",
  USER_FIELD_NAME_STATE: "state",
  USER_FIELD_NAME_TYPE: "userId",
  USER_FIELD_NAME_CREATION_DATE: "createdAt",
};

const TEXT_QUERIES: Readonly<Record<string, readonly [member: string, field: ListingTextField | "loginName"]>> = {
  userNameQuery: ["userName", "username"],
  emailQuery: ["emailAddress", "email"],
  displayNameQuery: ["displayName", "displayName"],
  loginNameQuery: ["loginName", "loginName"],
};
const UNSUPPORTED_QUERIES = new Set(["firstNameQuery", "lastNameQuery", "nickNameQuery", "phoneQuery", "inUserEmailsQuery"]);

type Path = readonly (string | number)[];

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

const UINT64_MAX = 2n ** 64n - 1n;
const UINT32_MAX = 2n ** 32n - 1n;

/**
 * An unsigned integer written in a string, read as ZITADEL's protojson reads one: a JSON number
 * (`"12"`, `"1e3"`, `"1.0"`, `"-0"`; no leading zeros, no `+`, no spaces) made whole by the rules
 * of protobuf-go's normalizeToIntString (fraction digits only as many as a positive exponent
 * shifts, at most 20 digits, trailing zeros of a fraction dropped); undefined for any other text,
 * or a value past `max`.
 */
function unsignedText(text: string, max: bigint): bigint | undefined {
  const match = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) return undefined;
  const [, sign = "", whole = "", fraction = "", exponentText = "0"] = match;
  const integer = whole === "0" ? "" : whole;
  const decimals = fraction.replace(/0+$/, "");
  if (integer === "" && decimals === "") return 0n;
  if (sign === "-") return undefined;
  const exponent = Number(exponentText);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 2 ** 31 - 1) return undefined;
  let digits: string;
  if (exponent >= 0) {
    if (decimals.length > exponent || integer.length + exponent > 20) return undefined;
    digits = integer + decimals + "0".repeat(exponent - decimals.length);
  } else {
    const cut = integer.length + exponent;
    if (decimals.length > 0 || cut < 0 || !/^0*$/.test(integer.slice(cut))) return undefined;
    digits = integer.slice(0, cut);
  }
  if (digits === "") return undefined;
  const value = BigInt(digits);
  return value <= max ? value : undefined;
}

/** Collects violations while the request is read; each reader answers undefined for a bad value. */
class Reader {
  readonly violations: FieldViolation[] = [];
  /** Queries read so far, at every level. */
  queriesSeen = 0;

  fail(path: Path, description: string): undefined {
    this.violations.push(violation(path, description));
    return undefined;
  }

  /** A protobuf enum by name or number; absent (or null) is the zero value. */
  enumValue<T extends string>(value: unknown, names: readonly T[], path: Path): T | undefined {
    if (value === undefined || value === null) return names[0];
    if (typeof value === "string" && (names as readonly string[]).includes(value)) return value as T;
    if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value < names.length) return names[value];
    return this.fail(path, `must be one of ${names.join(", ")} (or 0 to ${names.length - 1})`);
  }

  text(value: unknown, path: Path, min: number): string | undefined {
    if (value === undefined || value === null) return min > 0 ? this.fail(path, "is required") : "";
    if (typeof value !== "string") return this.fail(path, "must be a string");
    const problem = textProblem(value, { min, max: MAX_TEXT });
    return problem === undefined ? value : this.fail(path, problem);
  }

  /**
   * A uint64 or uint32 (`max`) as protobuf JSON writes it: a number or a string. Past what a
   * number holds exactly it is past every list anyway, so it is kept as the largest safe integer.
   */
  wholeNumber(value: unknown, path: Path, max: bigint): number | undefined {
    if (value === undefined || value === null) return 0;
    const whole = typeof value === "string" ? unsignedText(value, max) : typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= Number(max) ? BigInt(value) : undefined;
    if (whole !== undefined) return whole > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(whole);
    return this.fail(path, `must be a whole number from 0 to ${max}`);
  }

  textQuery(name: string, body: unknown, path: Path): SearchQuery | undefined {
    const [member, field] = TEXT_QUERIES[name] ?? ["", "username"];
    if (!isObject(body)) return this.fail(path, "must be an object");
    // ZITADEL's query.proto: every text but the email address has min_len 1.
    const value = this.text(body[member], [...path, member], member === "emailAddress" ? 0 : 1);
    const methodName = this.enumValue(body["method"], TEXT_METHOD_NAMES, [...path, "method"]);
    const [match, ignoreCase] = TEXT_METHODS[methodName === undefined ? 0 : TEXT_METHOD_NAMES.indexOf(methodName)] ?? ["equals", false];
    if (field === "loginName" && (match === "contains" || match === "endsWith")) {
      return this.fail([...path, "method"], "must be EQUALS or STARTS_WITH, each also ignoring case: a login name is found through its username");
    }
    if (value === undefined || methodName === undefined) return undefined;
    const method = { match, ignoreCase };
    if (field === "loginName") return { kind: "loginName", value, method };
    // Usernames are stored in NFC: a name typed in another form still finds its user.
    return { kind: "text", field, value: field === "username" ? value.normalize("NFC") : value, method };
  }

  queryList(value: unknown, path: Path, level: number): SearchQuery[] | undefined {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) return this.fail(path, "must be a list");
    // The request copy leaves a longer list's entries unread: name the list, not each entry.
    if (value.length > MAX_QUERIES) return this.fail(path, `must hold at most ${MAX_QUERIES} queries`);
    this.queriesSeen += value.length;
    const queries = value.map((item, index) => this.query(item, [...path, index], level));
    return queries.every((query) => query !== undefined) ? (queries as SearchQuery[]) : undefined;
  }

  query(value: unknown, path: Path, level: number): SearchQuery | undefined {
    if (level > MAX_NESTING) return this.fail(path, `nests more than ${MAX_LEVELS} levels deep`);
    if (!isObject(value)) return this.fail(path, "must be an object");
    const set = Object.keys(value).filter((name) => value[name] !== undefined && value[name] !== null);
    const [name] = set;
    if (name === undefined) return this.fail(path, "must set one query");
    if (set.length > 1) return this.fail(path, `must set one query, not ${set.join(" and ")}`);
    const body = value[name];
    const at = [...path, name];
    if (name in TEXT_QUERIES) return this.textQuery(name, body, at);
    if (UNSUPPORTED_QUERIES.has(name)) return this.fail(at, "is not supported by this library");
    if (!isObject(body)) return this.fail(at, "must be an object");
    switch (name) {
      case "organizationIdQuery": {
        const orgId = this.text(body["organizationId"], [...at, "organizationId"], 1);
        return orgId === undefined ? undefined : { kind: "organization", orgId };
      }
      case "stateQuery": {
        const state = this.enumValue(body["state"], USER_STATE_NAMES, [...at, "state"]);
        if (state === undefined) return undefined;
        // Users of this library are never inactive or deleted: those states find nobody.
        const listed: readonly string[] = ["USER_STATE_ACTIVE", "USER_STATE_LOCKED", "USER_STATE_INITIAL"];
        return { kind: "states", states: listed.includes(state) ? [state as ListedUserState] : [] };
      }
      case "typeQuery": {
        const type = this.enumValue(body["type"], TYPE_NAMES, [...at, "type"]);
        if (type === undefined) return undefined;
        // Every user here is human.
        return type === "TYPE_HUMAN" ? { kind: "and", queries: [] } : { kind: "or", queries: [] };
      }
      case "inUserIdsQuery": {
        const ids = body["userIds"] ?? [];
        if (!Array.isArray(ids)) return this.fail([...at, "userIds"], "must be a list");
        if (ids.length > MAX_USER_IDS) return this.fail([...at, "userIds"], `must hold at most ${MAX_USER_IDS} ids`);
        // ZITADEL's NewInTextQuery refuses no values (ErrEmptyValues): the whole search fails.
        if (ids.length === 0) return this.fail([...at, "userIds"], "must hold at least one id");
        const userIds = ids.map((id, index) => this.text(id, [...at, "userIds", index], 1));
        return userIds.every((id) => id !== undefined) ? { kind: "userIds", userIds: userIds as string[] } : undefined;
      }
      case "andQuery":
      case "orQuery": {
        const queries = this.queryList(body["queries"], [...at, "queries"], level + 1);
        // ZITADEL's NewAndQuery and NewOrQuery refuse no queries (ErrMissingColumn): the whole search fails.
        if (queries !== undefined && queries.length === 0) return this.fail([...at, "queries"], "must hold at least one query");
        return queries === undefined ? undefined : { kind: name === "andQuery" ? "and" : "or", queries };
      }
      case "notQuery": {
        this.queriesSeen += 1;
        const query = this.query(body["query"], [...at, "query"], level + 1);
        return query === undefined ? undefined : { kind: "not", query };
      }
      default:
        return this.fail(at, "is not a known query");
    }
  }
}

/** Every rule of a `listUsers` request, all violations at once, or the parsed request. */
export function parseListUsersRequest(request: Readonly<Record<string, unknown>>): Result<ListUsersParsed, FieldViolation[]> {
  const reader = new Reader();
  const page = request["query"] ?? {};
  let offset: number | undefined = 0;
  let limit: number | undefined = DEFAULT_LIST_LIMIT;
  let ascending = false;
  if (!isObject(page)) reader.fail(["query"], "must be an object");
  else {
    // ZITADEL's ListQuery: a uint64 offset and a uint32 limit.
    offset = reader.wholeNumber(page["offset"], ["query", "offset"], UINT64_MAX);
    const given = reader.wholeNumber(page["limit"], ["query", "limit"], UINT32_MAX);
    if (given !== undefined && given > MAX_LIST_LIMIT) limit = reader.fail(["query", "limit"], `must be at most ${MAX_LIST_LIMIT}`);
    else limit = given === undefined ? undefined : given === 0 ? DEFAULT_LIST_LIMIT : given;
    const asc = page["asc"];
    if (asc !== undefined && asc !== null && typeof asc !== "boolean") reader.fail(["query", "asc"], "must be true or false");
    ascending = asc === true;
  }
  const sortingColumn = reader.enumValue(request["sortingColumn"], FIELD_NAMES, ["sortingColumn"]);
  const queries = reader.queryList(request["queries"], ["queries"], 0);
  if (reader.queriesSeen > MAX_QUERIES) return err([...reader.violations, violation(["queries"], `must hold at most ${MAX_QUERIES} queries in all, nested ones included`)]);
  if (reader.violations.length > 0 || offset === undefined || limit === undefined || sortingColumn === undefined || queries === undefined) {
    return err(reader.violations);
  }
  return ok({ offset, limit, ascending, sortingColumn, sortBy: SORT_FIELDS[sortingColumn], queries });
}

const named = (...names: readonly string[]): FieldTree => ({ members: new Map(names.map((name) => [name, {}])) });

/**
 * What a search query reads, `levels` levels deep: the copy reads a nested query no deeper than
 * this, so a body nested deeper costs nothing (the parser names the level it stops at).
 */
function searchQueryFields(levels: number): FieldTree {
  const members = new Map<string, FieldTree>([
    ...Object.entries(TEXT_QUERIES).map(([name, [member]]): [string, FieldTree] => [name, named(member, "method")]),
    ["organizationIdQuery", named("organizationId")],
    ["stateQuery", named("state")],
    ["typeQuery", named("type")],
    ["inUserIdsQuery", { members: new Map([["userIds", { items: {} }]]) }],
    // Read so that the answer can name them.
    ...[...UNSUPPORTED_QUERIES].map((name): [string, FieldTree] => [name, named()]),
  ]);
  if (levels > 1) {
    const inner = searchQueryFields(levels - 1);
    const list: FieldTree = { members: new Map([["queries", { items: inner }]]) };
    members.set("andQuery", list);
    members.set("orQuery", list);
    members.set("notQuery", { members: new Map([["query", inner]]) });
  }
  return { members };
}

/** Every member `listUsers` reads. */
export const listUsersFields: FieldTree = {
  members: new Map<string, FieldTree>([
    ["query", named("offset", "limit", "asc")],
    ["sortingColumn", {}],
    ["queries", { items: searchQueryFields(MAX_LEVELS + 1) }],
  ]),
};
