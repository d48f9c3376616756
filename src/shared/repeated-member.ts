// A member name an object of a JSON text gives twice. `JSON.parse` keeps the last of the two
// without a word; protojson, which reads ZITADEL's JSON, refuses such a body ("duplicate field"),
// and an import must not drop the first value unreported. Both walks below keep their own stack:
// a body nested thousands deep (a few kilobytes) must not overflow the call stack.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Where the string that starts at `at` (its opening quote) ends: the index of its closing quote. */
function stringEnd(text: string, at: number): number {
  let index = at + 1;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char === BACKSLASH) index += 2;
    else if (char === QUOTE) return index;
    else index += 1;
  }
  return text.length;
}

/** How many members the objects of a JSON text give: its colons outside strings. */
function membersInText(text: string): number {
  let members = 0;
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (char === COLON) members += 1;
    else if (char === QUOTE) at = stringEnd(text, at);
  }
  return members;
}

/** How many own members the objects of a parsed value hold: fewer than the text gives when a name repeats. */
function membersInValue(value: unknown): number {
  let members = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item !== "object" || item === null) continue;
    if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
      continue;
    }
    // Own names only: a name some code added to Object.prototype is no member of the body.
    const names = Object.keys(item);
    members += names.length;
    for (const name of names) pending.push((item as Record<string, unknown>)[name]);
  }
  return members;
}

interface ObjectFrame {
  readonly kind: "object";
  readonly names: Set<string>;
  expectingName: boolean;
  name: string;
}

interface ArrayFrame {
  readonly kind: "array";
  index: number;
}

/**
 * The path of the value each frame has open, from the outermost: `profile.givenName`, `idps[1]`.
 * Made only once a repeat is found: a body nested half a million deep must not make a path per level.
 */
function pathOf(stack: readonly (ObjectFrame | ArrayFrame)[]): string {
  let path = "";
  for (const frame of stack) {
    if (frame.kind === "array") path += `[${frame.index}]`;
    else path += path === "" ? frame.name : `.${frame.name}`;
  }
  return path;
}

/** A string token's text: escapes decoded, so that `"a"` and `"\u0061"` are one name. */
function decoded(token: string): string {
  return token.includes("\\") ? (JSON.parse(token) as string) : token.slice(1, -1);
}

/** Walks the text name by name: the path of the first name an object repeats. */
function firstRepeat(text: string): string | undefined {
  const stack: (ObjectFrame | ArrayFrame)[] = [];
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    const top = stack[stack.length - 1];
    if (char === OPEN_OBJECT) stack.push({ kind: "object", names: new Set(), expectingName: true, name: "" });
    else if (char === OPEN_ARRAY) stack.push({ kind: "array", index: 0 });
    else if (char === CLOSE_OBJECT || char === CLOSE_ARRAY) stack.pop();
    else if (char === COMMA) {
      if (top?.kind === "object") top.expectingName = true;
      else if (top?.kind === "array") top.index += 1;
    } else if (char === QUOTE) {
      const end = stringEnd(text, at);
      if (top?.kind === "object" && top.expectingName) {
        const name = decoded(text.slice(at, end + 1));
        top.name = name;
        top.expectingName = false;
        if (top.names.has(name)) return pathOf(stack);
        top.names.add(name);
      }
      at = end;
    }
  }
  return undefined;
}

/**
 * The path of the first member an object of `text` repeats (`userName`, `profile.givenName`,
 * `idps[0].externalUserId`), or undefined when none does. `parsed` is `JSON.parse(text)`: when it
 * holds as many members as the text gives, none repeats, and the text is not walked name by name.
 */
export function repeatedMember(text: string, parsed: unknown): string | undefined {
  if (membersInValue(parsed) === membersInText(text)) return undefined;
  return firstRepeat(text);
}
