// An address as RFC 5322's addr-spec writes it, with RFC 6532's Unicode, and nothing around it:
// what ZITADEL accepts (Go's mail.ParseAddress, refusing a display name). The local part is a
// dot-atom or a quoted string; the domain a dot-atom (one label is enough: `ann@localhost`) or an
// IP address literal (`ann@[192.0.2.1]`, `ann@[IPv6:2001:db8::1]`), as Go's parser asks. A quoted
// local part holds no character a mailer reads as address syntax (`<>()[],;:@`, quotes,
// backslashes), and neither starts nor ends with white space, which nodemailer trims (`" a"` would
// be mailed to `a`): nodemailer would rewrite such an address, or send the code to another one.
// Display names, angle brackets, comments and line breaks are refused.
const ATEXT = "[\\p{L}\\p{M}\\p{N}!#$%&'*+/=?^_`{|}~-]";
const DOT_ATOM = `${ATEXT}+(?:\\.${ATEXT}+)*`;
const QUOTED_STRING = '"(?!\\s)[^"\\\\<>()[\\],;:@\\p{Cc}]+(?<!\\s)"';
const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IP_LITERAL = `\\[(?:${OCTET}(?:\\.${OCTET}){3}|IPv6:[\\dA-Fa-f]*:[\\dA-Fa-f:.]*)\\]`;
const ADDRESS = new RegExp(`^(?:${DOT_ATOM}|${QUOTED_STRING})@(?:${DOT_ATOM}|${IP_LITERAL})$`, "u");

/** True for an address such as `ann.lee+news@example.co.uk`, `ann@localhost` or `"ann lee"@example.com`. */
export function isEmailAddress(address: string): boolean {
  return ADDRESS.test(address);
}
