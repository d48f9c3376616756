/**
 * CSV columns and the `importHumanUser` request fields they fill. Column names are matched ignoring
 * case; an empty cell leaves its field out.
 */
const columns = {
  userName: "userName",
  firstName: "profile.firstName",
  lastName: "profile.lastName",
  nickName: "profile.nickName",
  displayName: "profile.displayName",
  preferredLanguage: "profile.preferredLanguage",
  gender: "profile.gender",
  email: "email.email",
  emailVerified: "email.isEmailVerified",
  phone: "phone.phone",
  phoneVerified: "phone.isPhoneVerified",
  password: "password",
  passwordHash: "hashedPassword.value",
  passwordChangeRequired: "passwordChangeRequired",
  requestPasswordlessRegistration: "requestPasswordlessRegistration",
  idpConfigId: "idps[0].configId",
  idpExternalUserId: "idps[0].externalUserId",
  idpDisplayName: "idps[0].displayName",
} as const;

export type CsvColumn = keyof typeof columns;

/** The columns as documented, in the documented order. */
export const csvColumns = Object.keys(columns) as CsvColumn[];

const booleanColumns: ReadonlySet<CsvColumn> = new Set(["emailVerified", "phoneVerified", "passwordChangeRequired", "requestPasswordlessRegistration"]);
const booleanWords: Readonly<Record<string, boolean>> = { true: true, false: false, yes: true, no: false, "1": true, "0": false };
const byLowerName = new Map(csvColumns.map((column) => [column.toLowerCase(), column]));
const byField = new Map<string, CsvColumn>(csvColumns.map((column) => [columns[column], column]));

/** The header's columns in order, or the names that are not columns (so a typo never drops data silently). */
export function readHeader(cells: readonly string[]): { readonly columns: readonly CsvColumn[] } | { readonly unknown: readonly string[] } {
  const known = cells.map((cell) => byLowerName.get(cell.trim().toLowerCase()));
  const unknown = cells.filter((_, index) => known[index] === undefined);
  return unknown.length > 0 ? { unknown } : { columns: known.filter((column) => column !== undefined) };
}

/** A boolean cell: true/false, yes/no or 1/0 (any case); anything else is passed on so validation names the field. */
function cellValue(column: CsvColumn, cell: string): unknown {
  if (!booleanColumns.has(column)) return cell;
  return booleanWords[cell.trim().toLowerCase()] ?? cell;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const [head, ...rest] = path.replace(/\[(\d+)\]/g, ".$1").split(".");
  if (head === undefined) return;
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const isIndex = /^\d+$/.test(rest[0] ?? "");
  const child = (target[head] ??= isIndex ? [] : {}) as Record<string, unknown>;
  setPath(child, rest.join("."), value);
}

/**
 * The `importHumanUser` request of one CSV row. `profile` and `email` are always present, so that a row
 * missing a name or an address is told which column, not that the whole object is missing.
 */
export function requestFromCells(header: readonly CsvColumn[], cells: readonly string[]): Record<string, unknown> {
  const request: Record<string, unknown> = { profile: {}, email: {} };
  header.forEach((column, index) => {
    const cell = cells[index] ?? "";
    if (cell !== "") setPath(request, columns[column], cellValue(column, cell));
  });
  return request;
}

/** The column a request field came from, for reports on CSV files; other fields keep their JSON path. */
export function columnOfField(field: string): string {
  return byField.get(field) ?? field;
}
