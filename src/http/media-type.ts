/**
 * Whether a Content-Type header names JSON in UTF-8: `application/json`, optionally with
 * `charset=utf-8` (any case, quoted or not). Connect's unary JSON uses the same media type.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  // What clients almost always send, answered without splitting it.
  if (header === "application/json") return true;
  const [essence = "", ...parameters] = header.split(";").map((part) => part.trim().toLowerCase());
  if (essence !== "application/json") return false;
  return parameters.every((parameter) => /^charset="?utf-?8"?$/.test(parameter) || parameter === "");
}

/** Whether a Content-Encoding header leaves the body as sent (absent or `identity`). */
export function isIdentityEncoding(header: string | undefined): boolean {
  return header === undefined || header.trim().toLowerCase() === "identity" || header.trim() === "";
}
