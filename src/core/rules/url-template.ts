import { err, ok, type Result } from "neverthrow";
import { unstorableTextProblem } from "./storable-text.js";

export type TemplateValue = "UserID" | "Code" | "OrgID" | "CodeID";
export type TemplatePart = { readonly literal: string } | { readonly value: TemplateValue };
export type UrlTemplate = readonly TemplatePart[];

/** The placeholders of most links; passkey registration links also have `{{.CodeID}}`. */
export const LINK_PLACEHOLDERS: readonly TemplateValue[] = ["UserID", "Code", "OrgID"];
export const PASSKEY_LINK_PLACEHOLDERS: readonly TemplateValue[] = ["UserID", "Code", "OrgID", "CodeID"];

const PLACEHOLDER = /^\{\{\s*\.(UserID|Code|OrgID|CodeID)\s*\}\}$/;

/**
 * Splits a template into literals and the known placeholders (`allowed`, default the three of
 * `LINK_PLACEHOLDERS`). Any other placeholder and any brace outside a placeholder is refused, with
 * the reason in words.
 */
export function parseUrlTemplate(template: string, allowed: readonly TemplateValue[] = LINK_PLACEHOLDERS): Result<UrlTemplate, string> {
  // The configured templates are parsed for every request that mails a link: parse each once, in
  // a cache of the placeholder list's own (callers pass the same few lists), keyed by the template.
  let cache = parsedByList.get(allowed);
  if (cache === undefined) parsedByList.set(allowed, (cache = new Map()));
  let parsed = cache.get(template);
  if (parsed === undefined) {
    parsed = parseUncached(template, allowed);
    if (cache.size >= 256) cache.clear();
    cache.set(template, parsed);
  }
  return parsed;
}

const parsedByList = new WeakMap<readonly TemplateValue[], Map<string, Result<UrlTemplate, string>>>();

function parseUncached(template: string, allowed: readonly TemplateValue[]): Result<UrlTemplate, string> {
  const parts: TemplatePart[] = [];
  let rest = template;
  while (rest.length > 0) {
    const open = rest.indexOf("{{");
    const literal = open === -1 ? rest : rest.slice(0, open);
    if (/[{}]/.test(literal)) return err("has unbalanced braces");
    if (literal !== "") parts.push({ literal });
    if (open === -1) break;
    const close = rest.indexOf("}}", open);
    if (close === -1) return err("has unbalanced braces");
    const match = PLACEHOLDER.exec(rest.slice(open, close + 2));
    const value = match?.[1] as TemplateValue | undefined;
    if (value === undefined || !allowed.includes(value)) {
      return err(`has an unknown placeholder (allowed: ${allowed.map((name) => `{{.${name}}}`).join(", ")})`);
    }
    parts.push({ value });
    rest = rest.slice(close + 2);
  }
  const sample = renderUrlTemplate(parts, { UserID: "1", Code: "A", OrgID: "1", CodeID: "1" });
  return isHttpUrl(sample) ? ok(parts) : err("must give an absolute http or https URL");
}

/** Fills the placeholders, URL-encoding each value; a value not given (CodeID outside passkey links) is empty. */
export function renderUrlTemplate(template: UrlTemplate, values: Readonly<Partial<Record<TemplateValue, string>>>): string {
  let out = "";
  for (const part of template) out += "literal" in part ? part.literal : encodeURIComponent(values[part.value] ?? "");
  return out;
}

/** True for an absolute http or https URL with a host, written out as such (not "https:///host"). */
export function isHttpUrl(text: string): boolean {
  // The authority must be there as written: for "https:///x" the URL parser skips the extra
  // slashes and takes "x" (here the code) as the host.
  if (!/^https?:\/\/[^/\\?#]/i.test(text)) return false;
  // The URL parser drops tabs and line breaks (and then reads what follows as the host): none at
  // all. No white space either: no URL holds it, and a mail client ends a link at the first one.
  if (/[\u0000-\u001f\u007f]|\s/u.test(text)) return false;
  // An unpaired surrogate: the URL parser escapes it as U+FFFD, but the link as written is stored
  // and mailed, and no SQL store keeps it (jsonb refuses it) nor any mail encodes it.
  if (unstorableTextProblem(text) !== undefined) return false;
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}
