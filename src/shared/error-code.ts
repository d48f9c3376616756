/**
 * The `code` a thrown value carries as a string (a Node errno name such as `ENOENT`, a SQLSTATE
 * such as `23505`, a `parseArgs` code), or undefined: anything can be thrown, and a code of
 * another type names nothing the callers compare against.
 */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code: unknown = (error as { readonly code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}
