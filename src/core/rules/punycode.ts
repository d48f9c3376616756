// Punycode (RFC 3492) decoding, for the xn-- labels of internationalized domain names: the
// runtime's URL parser gives a domain's ASCII form, but no runtime-agnostic API gives the Unicode one.

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 0x80;
const DELIMITER = "-";
/** RFC 3492 section 6.4: the decoder works within 32-bit signed integers. */
const MAX_INT = 0x7fffffff;

/** RFC 3492 section 6.1. */
function adapt(delta: number, points: number, first: boolean): number {
  let scaled = first ? Math.floor(delta / DAMP) : Math.floor(delta / 2);
  scaled += Math.floor(scaled / points);
  let k = 0;
  while (scaled > ((BASE - T_MIN) * T_MAX) >> 1) {
    scaled = Math.floor(scaled / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * scaled) / (scaled + SKEW));
}

/** A basic code point's digit value (a-z 0..25, 0-9 26..35, either case), or undefined. */
function digitOf(code: number): number | undefined {
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x30 && code <= 0x39) return code - 0x30 + 26;
  return undefined;
}

/** The Unicode text of a Punycode string (a label without its `xn--`), or undefined when it is not valid Punycode. */
export function decodePunycode(input: string): string | undefined {
  const output: number[] = [];
  const delimiter = input.lastIndexOf(DELIMITER);
  for (let index = 0; index < delimiter; index++) {
    const code = input.charCodeAt(index);
    if (code >= 0x80) return undefined;
    output.push(code);
  }
  let n = INITIAL_N;
  let i = 0;
  let bias = INITIAL_BIAS;
  for (let position = delimiter > 0 ? delimiter + 1 : 0; position < input.length; ) {
    const before = i;
    let weight = 1;
    for (let k = BASE; ; k += BASE) {
      if (position >= input.length) return undefined;
      const digit = digitOf(input.charCodeAt(position++));
      if (digit === undefined || digit > Math.floor((MAX_INT - i) / weight)) return undefined;
      i += digit * weight;
      const threshold = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < threshold) break;
      if (weight > Math.floor(MAX_INT / (BASE - threshold))) return undefined;
      weight *= BASE - threshold;
    }
    const length = output.length + 1;
    bias = adapt(i - before, length, before === 0);
    if (Math.floor(i / length) > MAX_INT - n) return undefined;
    n += Math.floor(i / length);
    i %= length;
    // Only code points of text: no surrogates, nothing past U+10FFFF.
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return undefined;
    output.splice(i, 0, n);
    i += 1;
  }
  return String.fromCodePoint(...output);
}
