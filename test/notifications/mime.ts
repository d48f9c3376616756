/**
 * Just enough MIME to read what nodemailer writes for one of our mails: unfolded headers,
 * RFC 2047 encoded words, multipart/alternative, quoted-printable and base64 bodies.
 */
export interface ReadMail {
  readonly headers: ReadonlyMap<string, string>;
  readonly text: string;
  readonly html: string;
}

function decodeBytes(bytes: readonly number[]): string {
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

function decodeQuotedPrintable(body: string, underscoreIsSpace: boolean): string {
  const unfolded = body.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let index = 0; index < unfolded.length; index += 1) {
    const character = unfolded[index] as string;
    if (character === "=" && /^[0-9A-F]{2}$/i.test(unfolded.slice(index + 1, index + 3))) {
      bytes.push(Number.parseInt(unfolded.slice(index + 1, index + 3), 16));
      index += 2;
    } else {
      bytes.push(...new TextEncoder().encode(underscoreIsSpace && character === "_" ? " " : character));
    }
  }
  return decodeBytes(bytes);
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : decodeQuotedPrintable(text, true),
    );
}

function readHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return headers;
}

function splitHead(raw: string): [Map<string, string>, string] {
  const end = raw.search(/\r?\n\r?\n/);
  const separator = /\r?\n\r?\n/.exec(raw)?.[0].length ?? 0;
  return [readHeaders(raw.slice(0, end)), raw.slice(end + separator)];
}

function decodePart(headers: ReadonlyMap<string, string>, body: string): string {
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  const decoded =
    encoding === "quoted-printable"
      ? decodeQuotedPrintable(body, false)
      : encoding === "base64"
        ? Buffer.from(body, "base64").toString("utf8")
        : body;
  return decoded.replace(/\r\n/g, "\n");
}

export function readMail(raw: string): ReadMail {
  const [headers, body] = splitHead(raw);
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get("content-type") ?? "")?.[1];
  if (boundary === undefined) throw new Error("expected a multipart mail");
  const parts = body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => splitHead(part.replace(/^\r?\n/, "").replace(/\r?\n$/, "")));
  const partOf = (type: string): string => {
    const found = parts.find(([partHeaders]) => (partHeaders.get("content-type") ?? "").startsWith(type));
    if (found === undefined) throw new Error(`no ${type} part`);
    return decodePart(found[0], found[1]);
  };
  return { headers, text: partOf("text/plain"), html: partOf("text/html") };
}
