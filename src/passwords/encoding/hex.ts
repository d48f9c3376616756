/** Hex of one case only (all lower or, when `allowUpper`, all upper), even length. */
export function decodeHex(text: string, allowUpper = false): Uint8Array | undefined {
  const ok = /^(?:[0-9a-f]{2})*$/.test(text) || (allowUpper && /^(?:[0-9A-F]{2})*$/.test(text));
  if (!ok) return undefined;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function encodeHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}
