import { err, ok, type Result } from "neverthrow";

export type TemplateValue = "UserID" | "Code" | "OrgID";
export type TemplatePart = { readonly literal: string } | { readonly value: TemplateValue };
export type UrlTemplate = readonly TemplatePart[];

const PLACEHOLDER = /^\{\{\s*\.(UserID|Code|OrgID)\s*\}\}$/;

/**
 * Splits a template into literals and the three known placeholders. Any other placeholder and
 * any brace outside a placeholder is refused, with the reason in words.
 */
export function parseUrlTemplate(template: string): Result<UrlTemplate, string> {
  // The configured templates are parsed for every request that mails a link: parse each once.
  let parsed = parsedTemplates.get(template);
  if (parsed === undefined) {
    parsed = parseUncached(template);
    if (parsedTemplates.size >= 256) parsedTemplates.clear();
    parsedTemplates.set(template, parsed);
  }
  return parsed;
}

const parsedTemplates = new Map<string, Result<UrlTemplate, string>>();

function parseUncached(template: string): Result<UrlTemplate, string> {
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
    if (match === null) return err("has an unknown placeholder (allowed: {{.UserID}}, {{.Code}}, {{.OrgID}})");
    parts.push({ value: match[1] as TemplateValue });
    rest = rest.slice(close + 2);
  }
  const sample = renderUrlTemplate(parts, { UserID: "1", Code: "A", OrgID: "1" });
  return isHttpUrl(sample) ? ok(parts) : err("must give an absolute http or https URL");
}

/** Fills the placeholders, URL-encoding each value. */
export function renderUrlTemplate(template: UrlTemplate, values: Readonly<Record<TemplateValue, string>>): string {
  let out = "";
  for (const part of template) out += "literal" in part ? part.literal : encodeURIComponent(values[part.value]);
  return out;
}

function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}
