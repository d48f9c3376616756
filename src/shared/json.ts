/** A JSON scalar. */
export type JsonPrimitive = string | number | boolean | null;
/** Any JSON value. */
export type JsonValue = JsonPrimitive | JsonArray | JsonObject;
/** A JSON array. */
export interface JsonArray extends ReadonlyArray<JsonValue> {}
/** A JSON object. */
export interface JsonObject {
  readonly [key: string]: JsonValue | undefined;
}
