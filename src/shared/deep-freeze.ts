// Values the library made and froze whole, so that a store may keep them as they are instead of
// copying them. A frozen object can still hold a getter, so only a value frozen here counts: a
// store copies anything else.

const frozenWhole = new WeakSet<object>();

/**
 * Freezes `value` and every object and list in it, and remembers it as frozen whole. Only for
 * plain data the library built itself (events, listings): data members, no typed arrays.
 */
export function deepFreeze<T extends object>(value: T): T {
  freezeMembers(value);
  frozenWhole.add(value);
  return value;
}

function freezeMembers(value: object): void {
  for (const key in value) {
    const member: unknown = (value as Record<string, unknown>)[key];
    if (member !== null && typeof member === "object") freezeMembers(member);
  }
  Object.freeze(value);
}

/** True for a value `deepFreeze` froze: nothing in it can change. */
export function isFrozenWhole(value: object): boolean {
  return frozenWhole.has(value);
}
