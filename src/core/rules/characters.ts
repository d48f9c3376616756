import { unstorableTextProblem } from "./storable-text.js";

/** Length in Unicode code points ("characters"), which is what every length limit counts, as in ZITADEL. */
export function characterCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

export interface TextLimits {
  readonly min: number;
  readonly max: number;
  /** Refuse text that is only white space. */
  readonly nonBlank?: boolean;
}

/**
 * What is wrong with `text` under `limits`, in words, or undefined when nothing is. Text no store
 * can hold is refused whatever the limits (checked after the length, so a huge value is not scanned).
 */
export function textProblem(text: string, limits: TextLimits): string | undefined {
  // UTF-16 length bounds the character count from above and from below (by half).
  if (limits.min > 0 && text.length === 0) return "must not be empty";
  if (text.length > limits.max) {
    if (text.length > 2 * limits.max || characterCount(text) > limits.max) return `must be at most ${limits.max} characters long`;
  }
  if (limits.min > 1 && characterCount(text) < limits.min) return `must be at least ${limits.min} characters long`;
  const unstorable = unstorableTextProblem(text);
  if (unstorable !== undefined) return unstorable;
  if (limits.nonBlank === true && text.trim().length === 0) return "must not be blank";
  return undefined;
}
