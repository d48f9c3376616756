import { URI } from "otpauth";
import { err, ok, type Result } from "neverthrow";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
/** Data characters modulo 8 that RFC 4648 can end on (0, 2, 4, 5 or 7). */
const VALID_REMAINDERS = new Set([0, 2, 4, 5, 7]);
export const MIN_TOTP_SECRET_BYTES = 16;

/** RFC 4648 base32, case-insensitive, padding optional but exact when present. */
export function decodeBase32(text: string): Uint8Array | undefined {
  const data = text.replace(/=+$/, "");
  const padding = text.length - data.length;
  if (padding > 0 && text.length % 8 !== 0) return undefined;
  if (!VALID_REMAINDERS.has(data.length % 8)) return undefined;
  const bytes = new Uint8Array(Math.floor((data.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const char of data.toUpperCase()) {
    const digit = ALPHABET.indexOf(char);
    if (digit === -1) return undefined;
    buffer = ((buffer << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[index++] = (buffer >> bits) & 0xff;
    }
  }
  return bytes;
}

/**
 * The secret of a TOTP factor given as base32 or as an `otpauth://totp/` URI. Only HMAC-SHA-1,
 * a 30-second step and 6 digits are supported, and the secret must hold at least 128 bits.
 */
export function parseTotpSecret(input: string): Result<Uint8Array, string> {
  const text = input.trim();
  const secret = /^otpauth:/i.test(text) ? secretFromUri(text) : ok(text);
  return secret.andThen((base32) => {
    const bytes = decodeBase32(base32);
    if (bytes === undefined) return err("is not valid base32");
    if (bytes.length < MIN_TOTP_SECRET_BYTES) return err("must hold at least 128 bits");
    return ok(bytes);
  });
}

function secretFromUri(uri: string): Result<string, string> {
  if (/^otpauth:\/\/hotp(?:[/?#]|$)/i.test(uri)) return err("must be an otpauth://totp/ URI (HOTP is not supported)");
  if (!/^otpauth:\/\/totp\//i.test(uri)) return err("must be an otpauth://totp/ URI: otpauth://totp/ then the label, then ?secret=");
  let parsed: ReturnType<typeof URI.parse>;
  let params: URLSearchParams;
  try {
    parsed = URI.parse(uri);
    params = new URL(uri).searchParams;
  } catch {
    return err("is not a valid otpauth URI or its secret is not valid base32");
  }
  // Parsers disagree on which of two values counts (the URI parser takes the last, URLSearchParams
  // the first): a URI that gives one twice says two things, and is refused.
  const names = [...params.keys()];
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) return err(`must give each parameter once (${repeated} is repeated)`);
  // Steam's encoder makes 5-character codes of its own alphabet from the same secret.
  if (params.has("encoder")) return err("must make 6-digit codes (no encoder parameter)");
  const secret = params.get("secret");
  if (!("period" in parsed) || secret === null) return err("must be an otpauth://totp/ URI");
  if (parsed.algorithm !== "SHA1") return err("must use the SHA1 algorithm");
  if (parsed.digits !== 6) return err("must use 6 digits");
  if (parsed.period !== 30) return err("must use a 30-second period");
  return ok(secret);
}
