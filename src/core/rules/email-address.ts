// A dot-atom local part (RFC 5322 atext) and a domain of letter-digit-hyphen labels, at least two.
// Display names ("Ann <ann@example.com>"), quoted local parts, comments and IP literals are refused:
// an address here is something a user types into a sign-up form.
const ATEXT = "[\\p{L}\\p{M}\\p{N}!#$%&'*+/=?^_`{|}~-]";
const LOCAL_PART = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*$`, "u");
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?$/u;

/** True for a plain address such as `ann.lee+news@example.co.uk`. */
export function isEmailAddress(address: string): boolean {
  const at = address.lastIndexOf("@");
  if (at <= 0 || at === address.length - 1) return false;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > 64 || domain.length > 253) return false;
  if (!LOCAL_PART.test(local)) return false;
  const labels = domain.split(".");
  return labels.length >= 2 && labels.every((label) => DOMAIN_LABEL.test(label)) && !/^\d+$/.test(labels[labels.length - 1] ?? "");
}
