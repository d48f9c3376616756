// Text every store can hold. PostgreSQL's `text` and `jsonb` cannot hold U+0000, and `jsonb`
// refuses a lone surrogate; UTF-8 cannot encode one at all (an encoder would swap it for U+FFFD,
// so two different strings would become one). Refusing such text at validation makes a request
// answer the same on every store, instead of being kept by one store and failing another's write.

import { hasUnpairedSurrogate } from "../../shared/surrogates.js";

/** Any NUL or surrogate code unit: most text has none, so one scan usually settles it. */
const SUSPECT = /[\u0000\ud800-\udfff]/;

/** Why no store can hold `text`, in words, or undefined when every store can. */
export function unstorableTextProblem(text: string): string | undefined {
  if (!SUSPECT.test(text)) return undefined;
  if (text.includes("\u0000")) return "must not contain the NUL character (U+0000)";
  if (hasUnpairedSurrogate(text)) return "must not contain an unpaired surrogate (U+D800 to U+DFFF)";
  return undefined;
}
