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

/** A cell of the header as written, and its 1-based position. */
export interface HeaderCell {
  readonly name: string;
  readonly position: number;
}

/** What a header row reads as: its columns in order, or why it cannot be used. */
export type Header =
  | { readonly columns: readonly CsvColumn[] }
  /** Names no column at all: a row of data, whose cells may be secrets and are never shown. */
  | { readonly notHeader: true }
  /** Names that are not columns, so that a typo never drops data silently. */
  | { readonly unknown: readonly string[] }
  /** Columns named more than once (in any spelling), each with the cells naming it: all but one cell would be dropped. */
  | { readonly repeated: readonly RepeatedColumn[] };

export interface RepeatedColumn {
  readonly column: CsvColumn;
  readonly cells: readonly HeaderCell[];
}

/** The columns named more than once, in the order they first appear. */
function repeatedColumns(cells: readonly string[], known: readonly (CsvColumn | undefined)[]): RepeatedColumn[] {
  const byColumn = new Map<CsvColumn, HeaderCell[]>();
  known.forEach((column, index) => {
    if (column === undefined) return;
    const named = byColumn.get(column) ?? [];
    named.push({ name: cells[index] ?? "", position: index + 1 });
    byColumn.set(column, named);
  });
  return [...byColumn].filter(([, named]) => named.length > 1).map(([column, named]) => ({ column, cells: named }));
}

/** The header's columns in order, or why the line cannot be the header. */
export function readHeader(cells: readonly string[]): Header {
  const known = cells.map((cell) => byLowerName.get(cell.trim().toLowerCase()));
  // A row of data may hold a cell that happens to be a column's name (a user called "email"):
  // a line is a header only when at least half of its cells name columns, so that the unknown
  // ones listed back are a header's typos, never a row's passwords or hashes.
  const named = known.filter((column) => column !== undefined).length;
  if (named === 0 || 2 * named < cells.length) return { notHeader: true };
  const unknown = cells.filter((_, index) => known[index] === undefined);
  if (unknown.length > 0) return { unknown };
  const repeated = repeatedColumns(cells, known);
  return repeated.length > 0 ? { repeated } : { columns: known.filter((column) => column !== undefined) };
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
