/** A decimal number as a hash spells it: digits only, no sign, no leading zero. */
export type DecimalParse = { readonly kind: "ok"; readonly value: number } | { readonly kind: "malformed" } | { readonly kind: "huge" };

const DECIMAL = /^(?:0|[1-9][0-9]*)$/;

/** Numbers beyond 15 digits are "huge": well formed, but past every sensible cost bound. */
export function parseDecimal(text: string): DecimalParse {
  if (!DECIMAL.test(text)) return { kind: "malformed" };
  if (text.length > 15) return { kind: "huge" };
  return { kind: "ok", value: Number(text) };
}
