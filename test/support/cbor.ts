// Just enough CBOR (RFC 8949) to write what an authenticator sends: integers, byte and text
// strings, lists and maps, each in its shortest head.
export type CborValue = number | string | Uint8Array | readonly CborValue[] | CborMap;
export type CborMap = ReadonlyMap<number | string, CborValue>;

function head(major: number, length: number): number[] {
  if (length < 24) return [(major << 5) | length];
  if (length < 0x100) return [(major << 5) | 24, length];
  if (length < 0x10000) return [(major << 5) | 25, length >> 8, length & 0xff];
  return [(major << 5) | 26, (length >>> 24) & 0xff, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff];
}

export function encodeCbor(value: CborValue): Uint8Array {
  const out: number[] = [];
  const write = (item: CborValue): void => {
    if (typeof item === "number") {
      if (!Number.isInteger(item)) throw new Error("only integers");
      out.push(...(item >= 0 ? head(0, item) : head(1, -1 - item)));
    } else if (typeof item === "string") {
      const bytes = new TextEncoder().encode(item);
      out.push(...head(3, bytes.length), ...bytes);
    } else if (item instanceof Uint8Array) {
      out.push(...head(2, item.length), ...item);
    } else if (item instanceof Map) {
      out.push(...head(5, item.size));
      for (const [key, member] of item) {
        write(key);
        write(member);
      }
    } else {
      const list = item as readonly CborValue[];
      out.push(...head(4, list.length));
      for (const member of list) write(member);
    }
  };
  write(value);
  return Uint8Array.from(out);
}
