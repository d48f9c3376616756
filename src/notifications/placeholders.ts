import { err, ok, type Result } from "neverthrow";
import { splitMessageTemplate, type MessageTemplateParts } from "../shared/message-template.js";

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

/** A template split once into literal text and value names, or why it cannot be filled. */
type CompiledTemplate = Result<MessageTemplateParts, string>;

// Templates are few and used for every message: split each once, not once per message.
const compiled = new Map<string, CompiledTemplate>();

function compile(template: unknown, part: string): CompiledTemplate {
  const split = splitMessageTemplate(template, part);
  return "parts" in split ? ok(split.parts) : err(split.problem);
}

/**
 * Puts `values` into `template`, each passed through `encode` first. A placeholder that names no
 * value is an error rather than literal text, so a typo in a host's template cannot go out unseen.
 */
export function fillTemplate(
  template: string,
  values: MessageValues,
  encode: (value: string) => string,
  part: string,
): Result<string, string> {
  // A host's template read from JSON may hold anything: only text is remembered.
  if (typeof template !== "string") return compile(template, part).map(() => "");
  let parts = compiled.get(template);
  if (parts === undefined) {
    parts = compile(template, part);
    if (compiled.size >= 256) compiled.clear();
    compiled.set(template, parts);
  }
  return parts.map((list) => {
    let filled = "";
    for (const part of list) filled += typeof part === "string" ? part : encode(values[part.value]);
    return filled;
  });
}
