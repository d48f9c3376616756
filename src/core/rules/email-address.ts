// An address as RFC 5322's addr-spec writes it, with RFC 6532's Unicode, and nothing around it:
// what ZITADEL accepts (Go's mail.ParseAddress, refusing a display name). The local part is a
// dot-atom or a quoted string; the domain a dot-atom (one label is enough: `ann@localhost`) or a
// literal (`ann@[192.0.2.1]`). Display names, angle brackets, comments and line breaks are refused.
const ATEXT = "[\\p{L}\\p{M}\\p{N}!#$%&'*+/=?^_`{|}~-]";
const DOT_ATOM = `${ATEXT}+(?:\\.${ATEXT}+)*`;
// qtext or a quoted pair, at least one character; no control characters.
const QUOTED_STRING = '"(?:[^"\\\\\\p{Cc}]|\\\\[^\\p{Cc}])+"';
// dtext: printable characters other than brackets, backslash and white space.
const DOMAIN_LITERAL = "\\[[^\\[\\]\\\\\\s\\p{Cc}]*\\]";
const ADDRESS = new RegExp(`^(?:${DOT_ATOM}|${QUOTED_STRING})@(?:${DOT_ATOM}|${DOMAIN_LITERAL})$`, "u");

/** True for an address such as `ann.lee+news@example.co.uk`, `ann@localhost` or `"ann lee"@example.com`. */
export function isEmailAddress(address: string): boolean {
  return ADDRESS.test(address);
}
