/**
 * What a request schema reads, as names: an object's members and what is read below each, a
 * list's entries. The request copy reads exactly this and nothing else, so that a field no schema
 * knows costs nothing, whatever it holds.
 */
export interface FieldTree {
  /** The members read from an object value, by lowerCamelCase name. */
  readonly members?: ReadonlyMap<string, FieldTree>;
  /** What is read from each entry of a list value. */
  readonly items?: FieldTree;
}

/**
 * The most entries of one list the copy reads. A longer list is refused whole: every list limit
 * is at most this.
 */
export const MAX_LIST_ENTRIES = 10_000;

/** Everything either tree reads: for a field both operations know, or one a check reads besides the schema. */
export function mergeFieldTrees(first: FieldTree, second: FieldTree): FieldTree {
  const members = mergeMembers(first.members, second.members);
  const items = first.items !== undefined && second.items !== undefined ? mergeFieldTrees(first.items, second.items) : (first.items ?? second.items);
  return { ...(members !== undefined ? { members } : {}), ...(items !== undefined ? { items } : {}) };
}

function mergeMembers(first: ReadonlyMap<string, FieldTree> | undefined, second: ReadonlyMap<string, FieldTree> | undefined): ReadonlyMap<string, FieldTree> | undefined {
  if (first === undefined || second === undefined) return first ?? second;
  const merged = new Map(first);
  for (const [name, fields] of second) {
    const known = merged.get(name);
    merged.set(name, known === undefined ? fields : mergeFieldTrees(known, fields));
  }
  return merged;
}
