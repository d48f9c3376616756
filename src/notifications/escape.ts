const htmlEntities: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

const htmlSpecial = /[&<>"']/;
const htmlSpecials = /[&<>"']/g;

/** Safe in HTML text and in quoted attribute values alike. */
export function escapeHtml(value: string): string {
  // Most values (names, codes, links) have nothing to escape: one test, and the value as it is.
  return htmlSpecial.test(value) ? value.replace(htmlSpecials, (character) => htmlEntities[character] ?? character) : value;
}

/** A header line (the subject) must stay one line: control characters become spaces. */
export function singleLine(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ");
}

/** Plain text keeps the value as it is. */
export function asIs(value: string): string {
  return value;
}
