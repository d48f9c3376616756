const encoder = new TextEncoder();

/** The UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Whether `text` takes more than `limit` bytes in UTF-8; a UTF-16 unit is at most 3 bytes, so only long texts are encoded. */
export function longerThanUtf8Bytes(text: string, limit: number): boolean {
  return text.length * 3 > limit && encoder.encode(text).length > limit;
}

/** One array holding `parts` one after another. */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
