import { ok, type Result } from "neverthrow";
import { anyRequestFields } from "../schemas/request-fields.js";
import { MAX_LIST_ENTRIES, type FieldTree } from "./field-tree.js";

/**
 * Stands, in the copy, for a value that was not read: an object or a list where the field takes
 * neither, a getter, or anything that is not plain data (a Buffer, a typed array, a Map, a Date,
 * a class instance, a function). A symbol, so every type check refuses it as the wrong type.
 */
export const UNREAD_VALUE: unique symbol = Symbol("unread value");

/** A member the source does not have (distinct from one whose value is `undefined`). */
const ABSENT: unique symbol = Symbol("absent");

/** A member a tree names, with its snake_case spelling (`given_name`), which protobuf JSON parsers accept too. */
export interface NamedMember {
  readonly name: string;
  readonly snakeName: string | undefined;
  readonly fields: FieldTree;
}

/** Each tree's members as a list, made once: the copy runs per request and per list entry. */
const namedMembers = new WeakMap<ReadonlyMap<string, FieldTree>, readonly NamedMember[]>();

export function membersOf(members: ReadonlyMap<string, FieldTree>): readonly NamedMember[] {
  let named = namedMembers.get(members);
  if (named === undefined) {
    named = [...members].map(([name, fields]) => {
      const snakeName = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      return { name, snakeName: snakeName !== name ? snakeName : undefined, fields };
    });
    namedMembers.set(members, named);
  }
  return named;
}

/** An own, enumerable data member: never calls a getter, never looks at the prototype chain. */
function ownMember(source: object, key: string | number): unknown {
  // Most names a tree holds are absent from a request: a cheap test first.
  if (!Object.hasOwn(source, key)) return ABSENT;
  const descriptor = Object.getOwnPropertyDescriptor(source, key);
  if (descriptor === undefined || descriptor.enumerable !== true) return ABSENT;
  return "value" in descriptor ? descriptor.value : UNREAD_VALUE;
}

/** An object JSON could have made: its prototype is `Object.prototype` (of any realm) or null. */
export function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

function copyValue(value: unknown, fields: FieldTree): unknown {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return value;
  if (Array.isArray(value)) return fields.items !== undefined ? copyList(value, fields.items) : UNREAD_VALUE;
  if (fields.members !== undefined && isPlainObject(value)) return copyMembers(value, fields.members);
  return UNREAD_VALUE;
}

function copyList(list: readonly unknown[], items: FieldTree): unknown[] {
  // Too long for any limit: MAX_LIST_ENTRIES + 1 unread entries, enough for every limit to refuse.
  if (list.length > MAX_LIST_ENTRIES) return new Array<unknown>(MAX_LIST_ENTRIES + 1).fill(UNREAD_VALUE);
  const copy: unknown[] = [];
  for (let index = 0; index < list.length; index++) {
    const entry = ownMember(list, index);
    copy.push(entry === ABSENT ? undefined : copyValue(entry, items));
  }
  return copy;
}

function copyMembers(source: object, members: ReadonlyMap<string, FieldTree>): Record<string, unknown> {
  const copy = Object.create(null) as Record<string, unknown>;
  for (const { name, snakeName, fields } of membersOf(members)) {
    // The lowerCamelCase spelling wins when both are present.
    let value = ownMember(source, name);
    if (value === ABSENT && snakeName !== undefined) value = ownMember(source, snakeName);
    if (value !== ABSENT) copy[name] = copyValue(value, fields);
  }
  return copy;
}

/**
 * The parts of a request that `fields` names, copied, with member names in lowerCamelCase (the
 * snake_case spelling is read too, as protobuf JSON parsers do). Nothing else is read: a member
 * no schema knows is left out unseen, whatever it holds, so a hostile value there costs nothing;
 * a list is read up to MAX_LIST_ENTRIES entries; objects come back without a prototype. The work
 * is bounded by the tree, never by the request. `fields` defaults to what either operation reads.
 *
 * Never an error: the Result remains from when a body nested too deeply was one.
 */
export function camelCaseKeys(value: unknown, fields: FieldTree = anyRequestFields): Result<unknown, never> {
  return ok(copyValue(value, fields));
}
