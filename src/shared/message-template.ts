// A mail or SMS template split into literal text and the values it places: used by delivery to
// fill it and by the configuration check to refuse a host's template before any mail needs it.

/** The values a template can place, by placeholder name (`{{code}}`, `{{ link }}`). */
export const MESSAGE_VALUE_NAMES = ["displayName", "username", "recipient", "code", "link", "validity", "expiresAt"] as const;

export type MessageValueName = (typeof MESSAGE_VALUE_NAMES)[number];

export type MessageTemplateParts = readonly (string | { readonly value: MessageValueName })[];

const KNOWN: ReadonlySet<string> = new Set(MESSAGE_VALUE_NAMES);

// Anything between double braces is a placeholder, in any spelling: `{{.Code}}` (a link's syntax)
// or `{{ user-name }}` must not go out as text, without the code the reader was waiting for.
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

/**
 * `template` split once into text and value names, or why it cannot be filled: not text (a host's
 * template read from JSON may lack a part), or a placeholder that names no value. `part` names the
 * template's part in the problem ("subject", "html").
 */
export function splitMessageTemplate(template: unknown, part: string): { readonly parts: MessageTemplateParts } | { readonly problem: string } {
  if (typeof template !== "string") return { problem: `the message template's ${part} is missing or not text` };
  const parts: (string | { readonly value: MessageValueName })[] = [];
  const unknown: string[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = (match[1] ?? "").trim();
    parts.push(template.slice(last, match.index));
    if (KNOWN.has(name)) parts.push({ value: name as MessageValueName });
    else unknown.push(match[0]);
    last = match.index + match[0].length;
  }
  parts.push(template.slice(last));
  if (unknown.length > 0) return { problem: `unknown placeholder ${unknown.join(", ")} in message template` };
  // Braces left over once the placeholders are out: one closed wrongly (`{{code}`), whose value would not go out.
  if (parts.some((piece) => typeof piece === "string" && (piece.includes("{{") || piece.includes("}}")))) {
    return { problem: "unbalanced braces in message template: write each placeholder as {{name}}" };
  }
  return { parts };
}
