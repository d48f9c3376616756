/** Every member of T, each allowed to be undefined (then left out). */
export type Unpruned<T> = { readonly [K in keyof T]-?: T[K] | undefined };

/**
 * Leaves out what protobuf JSON leaves out: absent members, empty strings, `false` and empty
 * lists, in `body` and in the objects nested in it.
 */
export function pruneEmpty<T extends object>(body: Unpruned<T>): T {
  const out: Record<string, unknown> = {};
  // for...in over own members: Object.entries would allocate a pair per member on every response.
  for (const key in body) {
    if (!Object.hasOwn(body, key)) continue;
    const value: unknown = body[key as keyof typeof body];
    if (value === undefined || value === "" || value === false) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[key] = value !== null && typeof value === "object" && !Array.isArray(value) ? pruneEmpty(value as object) : value;
  }
  return out as T;
}
