// A generated user base: valid users, invalid ones of several kinds, duplicates (in the same batch,
// across batches, differing in case) and lines that are not JSON, each with what should become of it.
import { hashSync } from "bcryptjs";
import type { FieldViolation } from "../../src/index.js";
import { userRequest } from "./support.js";

/**
 * What should become of a row: imported; already there (the same request as an earlier imported
 * row); a conflict (another earlier row holds its username); refused; or unreadable. `earlier` is
 * the 0-based index of the earlier row.
 */
export type Expected =
  | { readonly kind: "imported" }
  | { readonly kind: "exists"; readonly earlier: number }
  | { readonly kind: "conflict"; readonly earlier: number }
  | { readonly kind: "invalid"; readonly violation: FieldViolation }
  | { readonly kind: "unreadable" };

export interface GeneratedRow {
  /** 1-based line in the JSON Lines file. */
  readonly line: number;
  readonly text: string;
  readonly request?: Record<string, unknown>;
  readonly userName?: string;
  readonly expected: Expected;
}

/** Real bcrypt hashes of cost 4 (fast to make, and only parsed by the import). */
const hashes = Array.from({ length: 4 }, (_, index) => hashSync(`secret-${index}`, 4));

type Invalid = { readonly options: Parameters<typeof userRequest>[1]; readonly violation: FieldViolation };

const invalidKinds: readonly Invalid[] = [
  { options: { lastName: "   " }, violation: { field: "profile.lastName", description: "must not be blank" } },
  { options: { email: "not-an-address" }, violation: { field: "email.email", description: "is not a valid email address" } },
  { options: { phone: "+41 abc" }, violation: { field: "phone.phone", description: "must be a global number: + and the country code, then digits" } },
  { options: { hash: "$2x$04$abcdefghijklmnopqrstuu5U5xk6dk1bHJpRxAuJcIYlTK3kTQdSm" }, violation: { field: "hashedPassword.value", description: "the password hash is not in a supported format" } },
];

/**
 * `count` rows. Every 50th (from 7) is invalid in one of four ways, every 97th (from 5) repeats the
 * previous row's username in upper case (same batch), every 389th (from 11) repeats the username of
 * the row 600 before (an earlier batch: the same request when neither has a phone), every 1000th
 * (from 999) is not JSON. Whether a row is imported, already there or a conflict follows from the
 * rows before it: the same request is the same user, another one with a taken username a conflict.
 */
export function generateUsers(count: number): GeneratedRow[] {
  const rows: GeneratedRow[] = [];
  const taken = new Map<string, { readonly index: number; readonly text: string }>();
  for (let index = 0; index < count; index++) {
    const line = index + 1;
    if (index % 1000 === 999) {
      rows.push({ line, text: `{"userName": "broken-${index}", "password": `, expected: { kind: "unreadable" } });
      continue;
    }
    let userName = `user-${index}`;
    if (index % 97 === 5) userName = (rows[index - 1]?.userName ?? userName).toUpperCase();
    else if (index % 389 === 11 && index >= 600) userName = rows[index - 600]?.userName ?? userName;
    const invalid = index % 50 === 7 ? invalidKinds[Math.floor(index / 50) % invalidKinds.length] : undefined;
    const hash = hashes[index % hashes.length] as string;
    const request = userRequest(userName, { hash, ...(index % 5 === 0 ? { phone: `+41 79 ${String(1_000_000 + index).slice(-7)}` } : {}), ...invalid?.options });
    const text = JSON.stringify(request);
    const holder = taken.get(userName.toLowerCase());
    let expected: Expected;
    if (invalid !== undefined) expected = { kind: "invalid", violation: invalid.violation };
    else if (holder !== undefined) expected = { kind: holder.text === text ? "exists" : "conflict", earlier: holder.index };
    else {
      taken.set(userName.toLowerCase(), { index, text });
      expected = { kind: "imported" };
    }
    rows.push({ line, text, request, userName, expected });
  }
  return rows;
}

export function countOf(rows: readonly GeneratedRow[], kind: Expected["kind"]): number {
  return rows.filter((row) => row.expected.kind === kind).length;
}

/** The usernames a one-by-one import keeps, lower-cased as claims are, sorted. */
export function importedUsernames(rows: readonly GeneratedRow[]): string[] {
  return rows.flatMap((row) => (row.expected.kind === "imported" && row.userName !== undefined ? [row.userName.toLowerCase()] : [])).sort();
}
