// A member name an object of a JSON text gives twice. `JSON.parse` keeps the last of the two
// without a word; protojson, which reads ZITADEL's JSON, refuses such a body ("duplicate field"),
// and an import must not drop the first value unreported.

/** Strings (with their escapes) and the punctuation that shapes a JSON text; numbers, literals and spaces fall between. */
const TOKENS = /"(?:[^"\\]|\\.)*"|[{}[\]:,]/g;

interface ObjectFrame {
  readonly kind: "object";
  readonly path: string;
  readonly names: Set<string>;
  expectingName: boolean;
  name: string;
}

interface ArrayFrame {
  readonly kind: "array";
  readonly path: string;
  index: number;
}

/** The path of the value about to start inside `frame`: `profile.givenName`, `idps[1]`. */
function childPath(frame: ObjectFrame | ArrayFrame | undefined): string {
  if (frame === undefined) return "";
  if (frame.kind === "array") return `${frame.path}[${frame.index}]`;
  return frame.path === "" ? frame.name : `${frame.path}.${frame.name}`;
}

/** A string token's text: escapes decoded, so that `"a"` and `"\u0061"` are one name. */
function decoded(token: string): string {
  return token.includes("\\") ? (JSON.parse(token) as string) : token.slice(1, -1);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** How many members the objects of a JSON text give: its colons outside strings. */
function membersInText(text: string): number {
  let members = 0;
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (char === COLON) members += 1;
    else if (char === QUOTE) {
      for (at += 1; at < text.length; at++) {
        const inner = text.charCodeAt(at);
        if (inner === BACKSLASH) at += 1;
        else if (inner === QUOTE) break;
      }
    }
  }
  return members;
}

/** How many members the objects of a parsed value hold: fewer than the text gives when a name repeats. */
function membersInValue(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let members = 0;
  if (Array.isArray(value)) {
    for (const item of value) members += membersInValue(item);
    return members;
  }
  for (const name in value) members += 1 + membersInValue((value as Record<string, unknown>)[name]);
  return members;
}

/**
 * The path of the first member an object of `text` repeats (`userName`, `profile.givenName`,
 * `idps[0].externalUserId`), or undefined when none does. `parsed` is `JSON.parse(text)`: when it
 * holds as many members as the text gives, none repeats, and the text is not walked name by name.
 */
export function repeatedMember(text: string, parsed: unknown): string | undefined {
  if (membersInValue(parsed) === membersInText(text)) return undefined;
  const stack: (ObjectFrame | ArrayFrame)[] = [];
  TOKENS.lastIndex = 0;
  for (let match = TOKENS.exec(text); match !== null; match = TOKENS.exec(text)) {
    const token = match[0];
    const top = stack[stack.length - 1];
    switch (token) {
      case "{":
        stack.push({ kind: "object", path: childPath(top), names: new Set(), expectingName: true, name: "" });
        break;
      case "[":
        stack.push({ kind: "array", path: childPath(top), index: 0 });
        break;
      case "}":
      case "]":
        stack.pop();
        break;
      case ",":
        if (top?.kind === "object") top.expectingName = true;
        else if (top?.kind === "array") top.index += 1;
        break;
      case ":":
        break;
      default:
        if (top?.kind === "object" && top.expectingName) {
          const name = decoded(token);
          top.name = name;
          top.expectingName = false;
          if (top.names.has(name)) return childPath(top);
          top.names.add(name);
        }
    }
  }
  return undefined;
}
