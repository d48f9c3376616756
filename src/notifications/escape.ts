const htmlSpecial = /[&<>"']/;

/** Safe in HTML text and in quoted attribute values alike. */
export function escapeHtml(value: string): string {
  // Most values (names, codes) have nothing to escape: one native scan, and the value as it is.
  const first = value.search(htmlSpecial);
  if (first === -1) return value;
  // A link has a few: one pass from the first, with no callback per character.
  let escaped = value.slice(0, first);
  let copied = first;
  for (let index = first; index < value.length; index++) {
    const entity = htmlEntity(value.charCodeAt(index));
    if (entity === undefined) continue;
    escaped += value.slice(copied, index) + entity;
    copied = index + 1;
  }
  return escaped + value.slice(copied);
}

function htmlEntity(code: number): string | undefined {
  switch (code) {
    case 0x26:
      return "&amp;";
    case 0x3c:
      return "&lt;";
    case 0x3e:
      return "&gt;";
    case 0x22:
      return "&quot;";
    case 0x27:
      return "&#39;";
    default:
      return undefined;
  }
}

/** A header line (the subject) must stay one line: control characters become spaces. */
export function singleLine(value: string): string {
  // eslint-disable-next-line no-control-regex
  // C1 controls too: U+0085 (NEXT LINE) ends a line for Unicode-aware readers.
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ");
}

/** Plain text keeps the value as it is. */
export function asIs(value: string): string {
  return value;
}
