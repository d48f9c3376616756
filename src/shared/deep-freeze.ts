// Frozen JSON data: what a store may keep as it is, since nobody can change it. The library
// freezes the events and listings it makes, so that the memory store need not copy them.

/** Freezes `value` and every object and list in it; gives `value` back. For plain data: no typed arrays. */
export function deepFreeze<T extends object>(value: T): T {
  for (const key in value) {
    const member: unknown = value[key];
    if (member !== null && typeof member === "object") deepFreeze(member);
  }
  return Object.freeze(value);
}

/** True when `value` and every object and list in it are frozen: nothing in it can change. */
export function isDeeplyFrozen(value: object): boolean {
  if (!Object.isFrozen(value)) return false;
  for (const key in value) {
    const member: unknown = (value as Record<string, unknown>)[key];
    if (member !== null && typeof member === "object" && !isDeeplyFrozen(member)) return false;
  }
  return true;
}
