// getUser and listUsers on every store: whole bodies, who may read what (5, never 7), every query
// kind, the order and the paging, and the refusals.
import { err, ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { getUser, listUsers, verifyEmail, type Authorizer, type OperationContext, type User } from "../../../src/index.js";
import { invalidBody, plainError } from "../support/ports.js";
import { storeCases } from "../support/stores.js";
import { createAnn, globexMember, harnessForEachTest, importBob, initechMember, instanceAdmin, member, START } from "./harness.js";

const unknownUser = err(plainError(5, "USER-u5r5", "the user does not exist"));
const unauthenticated = err(plainError(16, "USER-4uth", "the request is not authenticated"));

describe.each(storeCases)("reads on $name", (storeCase) => {
  const harness = harnessForEachTest(storeCase);

  describe("getUser", () => {
    it("answers the whole v2 user: profile, email, phone, password facts, state and login names", async () => {
      const userId = await createAnn(harness, {
        profile: { givenName: "Ann", familyName: "Lee", nickName: "annie", displayName: "Ann L.", preferredLanguage: "de-ch", gender: "GENDER_FEMALE" },
        password: { password: "Secret-pass1", changeRequired: true },
      });
      // A read's details carry the creation date too, as ZITADEL's GetUserByID gives them.
      const details = { sequence: "3", changeDate: START, resourceOwner: "acme", creationDate: START };
      expect(await getUser(harness.ports, { userId }, { requester: member })).toEqual(
        ok({
          details,
          user: {
            userId,
            details,
            state: "USER_STATE_ACTIVE",
            username: "ann",
            loginNames: ["ann"],
            preferredLoginName: "ann",
            human: {
              profile: { givenName: "Ann", familyName: "Lee", nickName: "annie", displayName: "Ann L.", preferredLanguage: "de-CH", gender: "GENDER_FEMALE" },
              email: { email: "ann@acme.test" },
              phone: { phone: "+41791234567" },
              passwordChangeRequired: true,
              passwordChanged: START,
            },
          },
        }),
      );
    });

    it("leaves out what the user lacks but for nickName and phone, which ZITADEL always sets, and shows what was verified since, at the last change's sequence and time", async () => {
      const userId = await createAnn(harness, { phone: undefined });
      const created = harness.clock.iso();
      harness.clock.advance(60);
      await verifyEmail(harness.ports, { userId, verificationCode: "AAAAAA" });
      const details = { sequence: "3", changeDate: harness.clock.iso(), resourceOwner: "acme", creationDate: created };
      expect(await getUser(harness.ports, { user_id: userId }, { requester: member })).toEqual(
        ok({
          details,
          user: {
            userId,
            details,
            state: "USER_STATE_ACTIVE",
            username: "ann",
            loginNames: ["ann"],
            preferredLoginName: "ann",
            human: {
              profile: { givenName: "Ann", familyName: "Lee", nickName: "", displayName: "Ann Lee", preferredLanguage: "und", gender: "GENDER_UNSPECIFIED" },
              email: { email: "ann@acme.test", isVerified: true },
              phone: {},
            },
          },
        }),
      );
    });

    it("names a user of an organization with userLoginMustBeDomain on each verified domain, the primary one preferred", async () => {
      const userId = await createAnn(harness, { username: "carl", organization: { orgId: "initech" }, email: { email: "carl@initech.test" } }, initechMember);
      const user = (await getUser(harness.ports, { userId }, { requester: initechMember }))._unsafeUnwrap().user;
      expect({ loginNames: user.loginNames, preferredLoginName: user.preferredLoginName }).toEqual({
        loginNames: ["carl@initech.test", "carl@Initech.Example"],
        preferredLoginName: "carl@Initech.Example",
      });
    });

    it("shows an imported user waiting for initialization as initial", async () => {
      const userId = await importBob(harness);
      expect((await getUser(harness.ports, { userId }, { requester: member }))._unsafeUnwrap().user.state).toBe("USER_STATE_INITIAL");
    });

    it("needs user.read: 16 without a requester, 5 (never 7) outside the requester's reach; an instance admin reads everywhere", async () => {
      const userId = await createAnn(harness);
      expect(await getUser(harness.ports, { userId })).toEqual(unauthenticated);
      expect(await getUser(harness.ports, { userId }, { requester: globexMember })).toEqual(unknownUser);
      expect((await getUser(harness.ports, { userId }, { requester: instanceAdmin })).isOk()).toBe(true);
      expect(await getUser(harness.ports, { userId: "nobody" }, { requester: instanceAdmin })).toEqual(unknownUser);
      expect(await getUser(harness.ports, {}, { requester: member })).toEqual(err(invalidBody([{ field: "userId", description: "is required" }])));
    });

    it("asks the authorizer for user.read, not user.write", async () => {
      const userId = await createAnn(harness);
      const asked: string[] = [];
      const writeOnly: Authorizer = { hasPermission: (_requester, permission) => (asked.push(permission), permission === "user.write") };
      expect(await getUser({ ...harness.ports, authorizer: writeOnly }, { userId }, { requester: member })).toEqual(unknownUser);
      expect(asked).toEqual(["user.read"]);
    });
  });

  describe("listUsers", () => {
    /** The ids of Ann, Anna and Bob (initial) in acme, Carl in initech, Gina in globex, as 1 to 5. */
    let ids: string[] = [];
    const id = (n: number) => ids[n - 1] ?? `no user ${n}`;

    async function fiveUsers(): Promise<void> {
      ids = [
        await createAnn(harness, { phone: undefined }),
        await createAnn(harness, { username: "Anna", email: { email: "anna@acme.test" }, phone: undefined, profile: { givenName: "Anna", familyName: "Berg" } }),
        await importBob(harness),
        await createAnn(harness, { username: "carl", organization: { orgId: "initech" }, email: { email: "carl@initech.test" }, phone: undefined, profile: { givenName: "Carl", familyName: "Ek" } }, instanceAdmin),
        await createAnn(harness, { username: "gina", organization: { orgId: "globex" }, email: { email: "Gina@Globex.test" }, phone: undefined, profile: { givenName: "Gina", familyName: "Ross" } }, instanceAdmin),
      ];
    }

    async function userOf(n: number): Promise<User> {
      return (await getUser(harness.ports, { userId: id(n) }, { requester: instanceAdmin }))._unsafeUnwrap().user;
    }

    /** The whole body for these users in this order, `total` of them in all. */
    async function body(numbers: readonly number[], total = numbers.length) {
      const result = await Promise.all(numbers.map(userOf));
      return ok({
        details: { ...(total > 0 ? { totalResult: String(total) } : {}), timestamp: harness.clock.iso() },
        ...(result.length > 0 ? { result } : {}),
      });
    }

    const asAdmin = (request: unknown) => listUsers(harness.ports, request, { requester: instanceAdmin });
    const text = (query: string, member: string, value: string, method: string) => ({ queries: [{ [query]: { [member]: value, method } }] });

    it("lists every user to an instance admin, by user id descending by default, 100 a page", async () => {
      await fiveUsers();
      expect(await asAdmin({})).toEqual(await body([5, 4, 3, 2, 1]));
      expect(await asAdmin({ query: { asc: true, limit: 0 } })).toEqual(await body([1, 2, 3, 4, 5]));
    });

    it("lists only the users of organizations the requester may read", async () => {
      await fiveUsers();
      expect(await listUsers(harness.ports, {}, { requester: member })).toEqual(await body([3, 2, 1]));
      expect(await listUsers(harness.ports, {}, { requester: globexMember })).toEqual(await body([5]));
      const named = { queries: [{ organizationIdQuery: { organizationId: "globex" } }] };
      expect(await listUsers(harness.ports, named, { requester: member })).toEqual(await body([]));
      expect(await listUsers(harness.ports, named, { requester: instanceAdmin })).toEqual(await body([5]));
    });

    it("lists the organizations a custom authorizer allows, among the requester's own and those the queries name", async () => {
      await fiveUsers();
      const acmeAndGlobex: Authorizer = { hasPermission: (_requester, _permission, orgId) => orgId === "acme" || orgId === "globex" };
      const ports = { ...harness.ports, authorizer: acmeAndGlobex };
      const request = { queries: [{ orQuery: { queries: [{ organizationIdQuery: { organizationId: "globex" } }, { organizationIdQuery: { organizationId: "initech" } }] } }] };
      expect(await listUsers(ports, request, { requester: member })).toEqual(await body([5]));
      expect(await listUsers(ports, {}, { requester: member })).toEqual(await body([3, 2, 1]));
    });

    it("finds by username with every text method, with and without case", async () => {
      await fiveUsers();
      expect(await asAdmin(text("userNameQuery", "userName", "Anna", "TEXT_QUERY_METHOD_EQUALS"))).toEqual(await body([2]));
      expect(await asAdmin(text("userNameQuery", "userName", "ANNA", "TEXT_QUERY_METHOD_EQUALS"))).toEqual(await body([]));
      expect(await asAdmin(text("userNameQuery", "userName", "ANNA", "TEXT_QUERY_METHOD_EQUALS_IGNORE_CASE"))).toEqual(await body([2]));
      expect(await asAdmin(text("userNameQuery", "userName", "ann", "TEXT_QUERY_METHOD_STARTS_WITH"))).toEqual(await body([1]));
      expect(await asAdmin(text("userNameQuery", "userName", "ANN", "TEXT_QUERY_METHOD_STARTS_WITH_IGNORE_CASE"))).toEqual(await body([2, 1]));
      expect(await asAdmin(text("userNameQuery", "userName", "nn", "TEXT_QUERY_METHOD_CONTAINS"))).toEqual(await body([2, 1]));
      expect(await asAdmin(text("userNameQuery", "userName", "NA", "TEXT_QUERY_METHOD_ENDS_WITH_IGNORE_CASE"))).toEqual(await body([5, 2]));
      expect(await asAdmin({ queries: [{ userNameQuery: { userName: "gin", method: 6 } }] })).toEqual(await body([]));
      expect(await asAdmin({ queries: [{ user_name_query: { user_name: "gin", method: 2 } }] })).toEqual(await body([5]));
    });

    it("finds by email and display name", async () => {
      await fiveUsers();
      expect(await asAdmin(text("emailQuery", "emailAddress", "ann", "TEXT_QUERY_METHOD_STARTS_WITH"))).toEqual(await body([2, 1]));
      expect(await asAdmin(text("emailQuery", "emailAddress", "gina@globex.test", "TEXT_QUERY_METHOD_EQUALS"))).toEqual(await body([]));
      expect(await asAdmin(text("emailQuery", "emailAddress", "gina@globex.test", "TEXT_QUERY_METHOD_EQUALS_IGNORE_CASE"))).toEqual(await body([5]));
      expect(await asAdmin(text("displayNameQuery", "displayName", "Bob Stone", "TEXT_QUERY_METHOD_EQUALS"))).toEqual(await body([3]));
      expect(await asAdmin(text("displayNameQuery", "displayName", "lee", "TEXT_QUERY_METHOD_CONTAINS_IGNORE_CASE"))).toEqual(await body([1]));
    });

    it("finds by login name through the username claims: the username, or username@domain where usernames are per organization", async () => {
      await fiveUsers();
      const login = (value: string, method = "TEXT_QUERY_METHOD_EQUALS") => asAdmin(text("loginNameQuery", "loginName", value, method));
      expect(await login("ann")).toEqual(await body([1]));
      expect(await login("carl@initech.test")).toEqual(await body([4]));
      expect(await login("carl@Initech.Example")).toEqual(await body([4]));
      expect(await login("CARL@INITECH.TEST")).toEqual(await body([]));
      expect(await login("carl@initech.example")).toEqual(await body([]));
      expect(await login("CARL@initech.example", "TEXT_QUERY_METHOD_EQUALS_IGNORE_CASE")).toEqual(await body([4]));
      expect(await login("carl")).toEqual(await body([]));
      expect(await login("carl@later.test")).toEqual(await body([]));
      expect(await login("ann@acme.test")).toEqual(await body([]));
      expect(await login("car", "TEXT_QUERY_METHOD_STARTS_WITH")).toEqual(await body([4]));
      expect(await login("carl@initech.test", "TEXT_QUERY_METHOD_STARTS_WITH")).toEqual(await body([4]));
      expect(await login("AN", "TEXT_QUERY_METHOD_STARTS_WITH_IGNORE_CASE")).toEqual(await body([2, 1]));
      expect(await login("nn", "TEXT_QUERY_METHOD_CONTAINS")).toEqual(
        err(invalidBody([{ field: "queries[0].loginNameQuery.method", description: "must be EQUALS or STARTS_WITH, each also ignoring case: a login name is found through its username" }])),
      );
    });

    it("finds by organization, state, type and ids, and combines with and, or and not", async () => {
      await fiveUsers();
      expect(await asAdmin({ queries: [{ organizationIdQuery: { organizationId: "acme" } }] })).toEqual(await body([3, 2, 1]));
      expect(await asAdmin({ queries: [{ stateQuery: { state: "USER_STATE_INITIAL" } }] })).toEqual(await body([3]));
      expect(await asAdmin({ queries: [{ stateQuery: { state: 1 } }] })).toEqual(await body([5, 4, 2, 1]));
      expect(await asAdmin({ queries: [{ stateQuery: { state: "USER_STATE_INACTIVE" } }] })).toEqual(await body([]));
      expect(await asAdmin({ queries: [{ typeQuery: { type: "TYPE_HUMAN" } }] })).toEqual(await body([5, 4, 3, 2, 1]));
      expect(await asAdmin({ queries: [{ typeQuery: { type: "TYPE_MACHINE" } }] })).toEqual(await body([]));
      expect(await asAdmin({ queries: [{ inUserIdsQuery: { userIds: [id(1), id(5), "nobody"] } }] })).toEqual(await body([5, 1]));
      const either = { orQuery: { queries: [{ userNameQuery: { userName: "ann" } }, { userNameQuery: { userName: "gina" } }] } };
      expect(await asAdmin({ queries: [either] })).toEqual(await body([5, 1]));
      expect(await asAdmin({ queries: [{ notQuery: { query: { stateQuery: { state: "USER_STATE_ACTIVE" } } } }] })).toEqual(await body([3]));
      const both = { andQuery: { queries: [{ organizationIdQuery: { organizationId: "acme" } }, { notQuery: { query: { userNameQuery: { userName: "bob" } } } }] } };
      expect(await asAdmin({ queries: [both, { emailQuery: { emailAddress: "acme.test", method: "TEXT_QUERY_METHOD_ENDS_WITH" } }] })).toEqual(await body([2, 1]));
    });

    it("sorts by the sorting column without echoing it (as ZITADEL's v2 never fills it), and pages with offset and limit", async () => {
      await fiveUsers();
      // Ignoring case, as ZITADEL sorts by LOWER(username): `ann` before `Anna`.
      expect(await asAdmin({ sortingColumn: "USER_FIELD_NAME_USER_NAME", query: { asc: true } })).toEqual(await body([1, 2, 3, 4, 5], 5));
      expect(await asAdmin({ sortingColumn: 2, query: { offset: "1", limit: 2 } })).toEqual(await body([4, 3], 5));
      expect(await asAdmin({ sortingColumn: "USER_FIELD_NAME_STATE", query: { asc: true } })).toEqual(await body([1, 2, 4, 5, 3], 5));
      expect(await asAdmin({ sortingColumn: "USER_FIELD_NAME_CREATION_DATE", query: { offset: 7 } })).toEqual(await body([], 5));
    });

    it("takes every uint64 offset, as ZITADEL's ListQuery does: one past every user is an empty page", async () => {
      await fiveUsers();
      for (const offset of ["9999999999999999", "18446744073709551615", "1.8446744073709551615e19", 2 ** 60]) {
        expect(await asAdmin({ query: { offset } })).toEqual(await body([], 5));
      }
      // A string holds a JSON number, as protojson reads one: an exponent or a fraction of zeros is whole.
      for (const offset of ["4", "4e0", "4.0", "40e-1", "0.4e1", "400.0e-2"]) expect(await asAdmin({ query: { offset } })).toEqual(await body([1], 5));
      // Zero however written, "-0" too, as protobuf-go reads it.
      expect(await asAdmin({ query: { offset: "-0" } })).toEqual(await asAdmin({ query: { offset: 0 } }));
      for (const offset of ["18446744073709551616", "99999999999999999999", "123456789012345678901", -1, 1.5, "1.5", "4e-1", "04", "-4", "+4", " 1", "", "0.000000001e25"]) {
        expect(await asAdmin({ query: { offset } })).toEqual(err(invalidBody([{ field: "query.offset", description: "must be a whole number from 0 to 18446744073709551615" }])));
      }
      // The limit is a uint32.
      for (const limit of ["4294967296", 2 ** 32]) {
        expect(await asAdmin({ query: { limit } })).toEqual(err(invalidBody([{ field: "query.limit", description: "must be a whole number from 0 to 4294967295" }])));
      }
    });

    it("refuses a page over 1,000, unknown enums, unsupported and malformed queries, all at once", async () => {
      const request = {
        query: { limit: 1001, offset: -1 },
        sortingColumn: "USER_FIELD_NAME_AGE",
        queries: [{ firstNameQuery: { firstName: "Ann" } }, {}, { userNameQuery: { userName: "x", method: "LIKE" } }, { stateQuery: { state: 1 }, typeQuery: { type: 1 } }],
      };
      expect(await asAdmin(request)).toEqual(
        err(
          invalidBody([
            { field: "query.offset", description: "must be a whole number from 0 to 18446744073709551615" },
            { field: "query.limit", description: "must be at most 1000" },
            { field: "sortingColumn", description: "must be one of USER_FIELD_NAME_UNSPECIFIED, USER_FIELD_NAME_USER_NAME, USER_FIELD_NAME_FIRST_NAME, USER_FIELD_NAME_LAST_NAME, USER_FIELD_NAME_NICK_NAME, USER_FIELD_NAME_DISPLAY_NAME, USER_FIELD_NAME_EMAIL, USER_FIELD_NAME_STATE, USER_FIELD_NAME_TYPE, USER_FIELD_NAME_CREATION_DATE (or 0 to 9)" },
            { field: "queries[0].firstNameQuery", description: "is not supported by this library" },
            { field: "queries[1]", description: "must set one query" },
            {
              field: "queries[2].userNameQuery.method",
              description:
                "must be one of TEXT_QUERY_METHOD_EQUALS, TEXT_QUERY_METHOD_EQUALS_IGNORE_CASE, TEXT_QUERY_METHOD_STARTS_WITH, TEXT_QUERY_METHOD_STARTS_WITH_IGNORE_CASE, TEXT_QUERY_METHOD_CONTAINS, TEXT_QUERY_METHOD_CONTAINS_IGNORE_CASE, TEXT_QUERY_METHOD_ENDS_WITH, TEXT_QUERY_METHOD_ENDS_WITH_IGNORE_CASE (or 0 to 7)",
            },
            { field: "queries[3]", description: "must set one query, not stateQuery and typeQuery" },
          ]),
        ),
      );
    });

    it("refuses an empty or missing username, display name or login name, as ZITADEL's query.proto does (min_len 1), and takes an empty email", async () => {
      const request = {
        queries: [
          { userNameQuery: { userName: "", method: "TEXT_QUERY_METHOD_STARTS_WITH" } },
          { displayNameQuery: { method: "TEXT_QUERY_METHOD_CONTAINS" } },
          { loginNameQuery: { loginName: "" } },
          { emailQuery: { emailAddress: "" } },
        ],
      };
      expect(await asAdmin(request)).toEqual(
        err(
          invalidBody([
            { field: "queries[0].userNameQuery.userName", description: "must not be empty" },
            { field: "queries[1].displayNameQuery.displayName", description: "is required" },
            { field: "queries[2].loginNameQuery.loginName", description: "must not be empty" },
          ]),
        ),
      );
      expect((await asAdmin({ queries: [{ emailQuery: { emailAddress: "", method: "TEXT_QUERY_METHOD_STARTS_WITH" } }] })).isOk()).toBe(true);
    });

    it("reads a query 20 levels under the request's own (21 levels, as ZITADEL) and refuses the next level, naming it", async () => {
      await fiveUsers();
      const nested = (levels: number): unknown => (levels === 1 ? { userNameQuery: { userName: "ann" } } : { notQuery: { query: nested(levels - 1) } });
      expect(await asAdmin({ queries: [nested(21)] })).toEqual(await body([1]));
      expect(await asAdmin({ queries: [nested(20)] })).toEqual(await body([5, 4, 3, 2]));
      const path = `queries[0]${".notQuery.query".repeat(21)}`;
      expect(await asAdmin({ queries: [nested(22)] })).toEqual(err(invalidBody([{ field: path, description: "nests more than 21 levels deep" }])));
      expect(await asAdmin({ queries: [nested(5000)] })).toEqual(err(invalidBody([{ field: path, description: "nests more than 21 levels deep" }])));
    });

    it("refuses an and, or or id list with nothing in it, as ZITADEL's search fails on one", async () => {
      await fiveUsers();
      expect(await asAdmin({ queries: [{ orQuery: { queries: [] } }, { andQuery: {} }, { notQuery: { query: { inUserIdsQuery: { userIds: [] } } } }] })).toEqual(
        err(
          invalidBody([
            { field: "queries[0].orQuery.queries", description: "must hold at least one query" },
            { field: "queries[1].andQuery.queries", description: "must hold at least one query" },
            { field: "queries[2].notQuery.query.inUserIdsQuery.userIds", description: "must hold at least one id" },
          ]),
        ),
      );
    });

    it("refuses more than 100 queries in all, nested ones counted, and a list longer than that, naming the list", async () => {
      await fiveUsers();
      const startsWith = (count: number) => Array.from({ length: count }, (_, index) => ({ userNameQuery: { userName: `x${index}`, method: "TEXT_QUERY_METHOD_STARTS_WITH" } }));
      // 4 lists of 25 and the `or`s: 105 queries, each list under the cap of one list.
      const tooMany = { queries: [{ orQuery: { queries: [0, 1, 2, 3].map(() => ({ orQuery: { queries: startsWith(25) } })) } }] };
      expect(await asAdmin(tooMany)).toEqual(err(invalidBody([{ field: "queries", description: "must hold at most 100 queries in all, nested ones included" }])));
      const longList = { queries: [{ orQuery: { queries: startsWith(101) } }] };
      expect(await asAdmin(longList)).toEqual(err(invalidBody([{ field: "queries[0].orQuery.queries", description: "must hold at most 100 queries" }])));
      // The probe's request: 9,999 display-name queries, which held the event loop for seconds over 20,000 users.
      const hostile = { queries: [{ orQuery: { queries: Array.from({ length: 9_999 }, (_, index) => ({ displayNameQuery: { displayName: `n${index}` } })) } }] };
      expect(await asAdmin(hostile)).toEqual(err(invalidBody([{ field: "queries[0].orQuery.queries", description: "must hold at most 100 queries" }])));
      const most = { queries: [{ orQuery: { queries: [...startsWith(98), { userNameQuery: { userName: "ann" } }] } }] };
      expect((await asAdmin(most))._unsafeUnwrap().details.totalResult).toBe("1");
    });

    it("needs a requester (16), a null one too, as getUser", async () => {
      expect(await listUsers(harness.ports, {})).toEqual(unauthenticated);
      expect(await listUsers(harness.ports, {}, { requester: null } as unknown as OperationContext)).toEqual(unauthenticated);
      expect(await getUser(harness.ports, { userId: "1" }, { requester: null } as unknown as OperationContext)).toEqual(unauthenticated);
    });

    it("finds a username typed in another Unicode form, as usernames are stored in NFC", async () => {
      const emile = await createAnn(harness, { username: "Émile", email: { email: "emile@acme.test" }, phone: undefined });
      const decomposed = "E\u0301mile";
      const found = (await getUser(harness.ports, { userId: emile }, { requester: instanceAdmin }))._unsafeUnwrap().user;
      for (const method of ["TEXT_QUERY_METHOD_EQUALS", "TEXT_QUERY_METHOD_STARTS_WITH", "TEXT_QUERY_METHOD_CONTAINS", "TEXT_QUERY_METHOD_ENDS_WITH"]) {
        expect(await asAdmin(text("userNameQuery", "userName", decomposed, method))).toEqual(ok({ details: { totalResult: "1", timestamp: harness.clock.iso() }, result: [found] }));
      }
    });

    it("takes the listings from the events: a verification shows in the list at once", async () => {
      await fiveUsers();
      const verified = { queries: [{ userNameQuery: { userName: "ann" } }] };
      const before = (await asAdmin(verified))._unsafeUnwrap().result?.[0]?.human.email;
      await verifyEmail(harness.ports, { userId: id(1), verificationCode: "AAAAAA" });
      expect([before, (await asAdmin(verified))._unsafeUnwrap().result?.[0]?.human.email]).toEqual([
        { email: "ann@acme.test" },
        { email: "ann@acme.test", isVerified: true },
      ]);
    });
  });
});
