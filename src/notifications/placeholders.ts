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

function isValueName(name: string, values: MessageValues): name is keyof MessageValues {
  return Object.prototype.hasOwnProperty.call(values, name);
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
  const unknown: string[] = [];
  const filled = template.replace(placeholder, (whole, name: string) => {
    if (isValueName(name, values)) return encode(values[name]);
    unknown.push(whole);
    return whole;
  });
  return unknown.length === 0 ? ok(filled) : err(`unknown placeholder ${unknown.join(", ")} in message template`);
}
