/** Characters kept as they are in the local part; everything else is written as `=XX` per UTF-8 byte. */
const plainCharacter = /[A-Za-z0-9_-]/;

function encodeLocalPart(id: string): string {
  const bytes = new TextEncoder().encode(id);
  return Array.from(bytes, (byte) => {
    const character = String.fromCharCode(byte);
    return byte < 0x80 && plainCharacter.test(character) ? character : `=${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }).join("");
}

/**
 * The domain of a sender written `name <local@domain>` or `local@domain`, a trailing comment
 * `(...)` aside, as a Message-ID may hold it: an internationalized name as its A-label (Message-ID
 * is ASCII), an IP literal as written; undefined when there is none.
 */
export function senderDomain(from: string): string | undefined {
  const address = from.replace(/\([^()]*\)\s*$/, "").trim();
  const match = /@(\[[0-9A-Fa-f:.]+\]|[^\s@<>()[\]]+)>?$/u.exec(address);
  const domain = match?.[1];
  if (domain === undefined) return undefined;
  if (domain.startsWith("[")) return domain;
  try {
    const hostname = new URL(`http://${domain}/`).hostname;
    return /^[a-z0-9.-]+$/.test(hostname) ? hostname : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Message-ID of a notification's mail: the same for every attempt, so that a mail server or
 * client can recognise a retried delivery. Distinct ids give distinct Message-IDs (`=` is escaped).
 */
export function notificationMessageId(notificationId: string, domain: string): string {
  return `<notification.${encodeLocalPart(notificationId)}@${domain}>`;
}
