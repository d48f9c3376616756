/**
 * Whether `text` holds a surrogate code unit that is not half of a pair: no Unicode text does,
 * UTF-8 cannot encode one (an encoder writes U+FFFD instead, so two strings would become one),
 * and PostgreSQL's jsonb refuses it.
 */
export function hasUnpairedSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    // A high surrogate followed by a low one is a pair (one character); anything else is not.
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    else return true;
  }
  return false;
}
