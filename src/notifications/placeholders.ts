import { err, ok, type Result } from "neverthrow";

/** The values a template can place, by placeholder name (`{{code}}`, `{{ link }}`). */
export interface MessageValues {
  /** The user's display name. */
  readonly displayName: string;
  readonly username: string;
  /** The email address or phone number the message goes to. */
  readonly recipient: string;
  readonly code: string;
  /** The ready-made link ("" in SMS). */
  readonly link: string;
  /** How long the code stays valid, in words of the message's language ("1 hour", "72 Stunden"). */
  readonly validity: string;
  /** When the code expires, RFC 3339 UTC. */
  readonly expiresAt: string;
}

const placeholder = /\{\{\s*([A-Za-z]*)\s*\}\}/g;

const VALUE_NAMES: ReadonlySet<string> = new Set<keyof MessageValues>(["displayName", "username", "recipient", "code", "link", "validity", "expiresAt"]);

/** A template split once into literal text and value names; `undefined` names an unknown placeholder. */
type CompiledTemplate = Result<readonly (string | { readonly value: keyof MessageValues })[], string>;

// Templates are few and used for every message: split each once, not once per message.
const compiled = new Map<string, CompiledTemplate>();

function compile(template: string): CompiledTemplate {
  const parts: (string | { readonly value: keyof MessageValues })[] = [];
  const unknown: string[] = [];
  let last = 0;
  for (const match of template.matchAll(placeholder)) {
    const name = match[1] ?? "";
    parts.push(template.slice(last, match.index));
    if (VALUE_NAMES.has(name)) parts.push({ value: name as keyof MessageValues });
    else unknown.push(match[0]);
    last = match.index + match[0].length;
  }
  parts.push(template.slice(last));
  return unknown.length === 0 ? ok(parts) : err(`unknown placeholder ${unknown.join(", ")} in message template`);
}

/**
 * Puts `values` into `template`, each passed through `encode` first. A placeholder that names no
 * value is an error rather than literal text, so a typo in a host's template cannot go out unseen.
 */
export function fillTemplate(
  template: string,
  values: MessageValues,
  encode: (value: string) => string,
): Result<string, string> {
  let parts = compiled.get(template);
  if (parts === undefined) {
    parts = compile(template);
    if (compiled.size >= 256) compiled.clear();
    compiled.set(template, parts);
  }
  return parts.map((list) => {
    let filled = "";
    for (const part of list) filled += typeof part === "string" ? part : encode(values[part.value]);
    return filled;
  });
}
