import { importRequestFields } from "../core/schemas/import-human-user.js";
import { isPlainObject, membersOf } from "../core/wire/camel-case-keys.js";
import type { FieldTree } from "../core/wire/field-tree.js";
import { closestName } from "../shared/closest-name.js";

/** A member of an import line that the import does not read, and the one it likely misspells or why it is not read. */
export interface UnknownField {
  readonly path: string;
  readonly meant: string | undefined;
  readonly why?: string;
}

/** Members of ZITADEL's ImportHumanUserRequest that the import does not read: fine when empty, refused when they hold something. */
const NOT_IMPORTED: Readonly<Record<string, string>> = { otpCode: "the import takes no OTP code: enrol OTP after it", otp_code: "the import takes no OTP code: enrol OTP after it" };

function joined(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}

function collect(value: unknown, tree: FieldTree, path: string, found: UnknownField[]): void {
  if (Array.isArray(value)) {
    if (tree.items !== undefined) value.forEach((entry, index) => collect(entry, tree.items as FieldTree, `${path}[${index}]`, found));
    return;
  }
  const members = tree.members;
  if (members === undefined || value === null || typeof value !== "object" || !isPlainObject(value)) return;
  for (const [name, member] of Object.entries(value)) {
    // Own members only: `toString` or `constructor` in a line are unknown fields, not methods.
    const why = path === "" && Object.hasOwn(NOT_IMPORTED, name) ? NOT_IMPORTED[name] : undefined;
    if (why !== undefined) {
      if (member !== "" && member !== null) found.push({ path: name, meant: undefined, why });
      continue;
    }
    // The exact lowerCamelCase or snake_case spelling, as the import reads them (see camelCaseKeys).
    const camel = members.get(name);
    const snake = camel === undefined ? membersOf(members).find((known) => known.snakeName === name) : undefined;
    if (snake !== undefined) {
      // Both spellings: the import reads the lowerCamelCase one, and this one would be dropped.
      if (Object.hasOwn(value, snake.name)) found.push({ path: joined(path, name), meant: undefined, why: `given as ${snake.name} too, which is the one read` });
      else collect(member, snake.fields, joined(path, name), found);
    } else if (camel !== undefined) collect(member, camel, joined(path, name), found);
    else {
      const meant = closestName(name, [...members.keys()]);
      found.push({ path: joined(path, name), meant: meant === undefined ? undefined : joined(path, meant) });
    }
  }
}

/**
 * The members of a parsed import line that the import does not read: a misspelled field would be
 * dropped without a word (the user imported without its password, its email unverified), so the
 * line fails instead, as a CSV header naming an unknown column stops the file. Type errors are
 * left to the import's own rules.
 */
export function unknownImportFields(value: unknown): readonly UnknownField[] {
  const found: UnknownField[] = [];
  collect(value, importRequestFields, "", found);
  return found;
}
