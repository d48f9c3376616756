// ZITADEL reads request bodies with protojson, which refuses an object that names a member twice.
// JSON.parse keeps the last one silently, so a proxy that reads the first would see another
// request than the one served: such bodies are refused here too.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * The first member name an object of `json` repeats, or undefined. `json` must be valid JSON (it
 * has been parsed already): the scan only tracks strings and nesting. Names are compared as
 * JSON.parse reads them, escapes decoded (`"\u0061"` is `"a"`).
 */
export function firstRepeatedMember(json: string): string | undefined {
  // One set of names per open object; null for an open list.
  const open: (Set<string> | null)[] = [];
  let expectingName = false;
  for (let index = 0; index < json.length; index++) {
    const code = json.charCodeAt(index);
    if (code === QUOTE) {
      const start = index + 1;
      let escaped = false;
      for (index = start; json.charCodeAt(index) !== QUOTE; index++) {
        if (json.charCodeAt(index) === BACKSLASH) {
          escaped = true;
          index++;
        }
      }
      const names = open[open.length - 1];
      if (expectingName && names != null) {
        const raw = json.slice(start, index);
        const name = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (names.has(name)) return name;
        names.add(name);
        expectingName = false;
      }
    } else if (code === OPEN_OBJECT) {
      open.push(new Set());
      expectingName = true;
    } else if (code === OPEN_LIST) {
      open.push(null);
    } else if (code === CLOSE_OBJECT || code === CLOSE_LIST) {
      open.pop();
    } else if (code === COMMA) {
      expectingName = open[open.length - 1] != null;
    } else if (code === COLON) {
      expectingName = false;
    }
  }
  return undefined;
}
