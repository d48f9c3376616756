import { parsePhoneNumberWithError, type CountryCode } from "libphonenumber-js/min";
import { err, ok, type Result } from "neverthrow";

// RFC 3966 global-number: "+" then digits and the visual separators - . ( ); spaces are also
// taken, as people paste them.
const GLOBAL_NUMBER = /^\+[\d\-.() ]*\d[\d\-.() ]*$/;

/** ITU-T E.164: at most 15 digits, the country code included. */
const E164_MAX_DIGITS = 15;

/** True when `text` is written as a global number (`+41 79 123 45 67`). */
export function isGlobalNumber(text: string): boolean {
  return GLOBAL_NUMBER.test(text);
}

/**
 * The number in E.164 (`+41791234567`). A number without `+` is read in `defaultRegion`; with no
 * default region it is refused.
 */
export function normalizePhoneNumber(text: string, defaultRegion: string | undefined): Result<string, string> {
  const trimmed = text.trim();
  if (!trimmed.startsWith("+") && defaultRegion === undefined) return err("must start with + and the country code (no default region is configured)");
  try {
    // The whole text is the number: by default the parser picks the first number out of it, so
    // "+1 800 FLOWERS" became +1800.
    const options = defaultRegion === undefined ? { extract: false } : { defaultCountry: defaultRegion as CountryCode, extract: false };
    const parsed = parsePhoneNumberWithError(trimmed, options);
    // The parser also reads a last group after "#", "," or "~" (marks a dialler waits on), or
    // after a word ("+41 79 123 45 x 67"), as an extension, which E.164 leaves out: the number lost
    // its "67". An extension counts only when a word names it (ext., x, ;ext=, anexo) and what
    // stands before it is a whole number.
    if (parsed.ext !== undefined && (!/\p{L}/u.test(trimmed) || !parsed.isPossible())) {
      return err('has digits read as an extension (after "#", ",", "~" or "x") that the number needs: write an extension after the whole number, as "ext. 12", or leave it out');
    }
    // The parser takes national numbers of up to 17 digits; E.164 allows 15 with the country code.
    if (parsed.number.length - 1 > E164_MAX_DIGITS) return err(`has more than the ${String(E164_MAX_DIGITS)} digits an E.164 number may have`);
    return ok(parsed.number);
  } catch {
    return err("is not a phone number that can be parsed");
  }
}
