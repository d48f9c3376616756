type DurationUnit = "hour" | "minute" | "second";

/** The largest unit that expresses `seconds` exactly, so 72 h reads "72 hours", not "3 days". */
function wholeUnit(seconds: number): [number, DurationUnit] {
  if (seconds >= 3600 && seconds % 3600 === 0) return [seconds / 3600, "hour"];
  if (seconds >= 60 && seconds % 60 === 0) return [seconds / 60, "minute"];
  return [seconds, "second"];
}

/**
 * A code's validity in words of `language` ("1 hour", "72 Stunden"), from the notification's
 * creation and expiry. Runtimes without locale data for `language` answer in English.
 */
export function describeValidity(createdAt: string, expiresAt: string, language: string): string {
  const rounded = Math.max(0, Math.round((Date.parse(expiresAt) - Date.parse(createdAt)) / 1000));
  const seconds = Number.isFinite(rounded) ? rounded : 0;
  // Few languages and lifetimes ever occur: the words are made once for each, and found again by
  // two map lookups with no key string to build.
  let byLifetime = described.get(language);
  if (byLifetime === undefined) {
    if (described.size >= 64) described.clear();
    byLifetime = new Map();
    described.set(language, byLifetime);
  }
  let words = byLifetime.get(seconds);
  if (words === undefined) {
    const [amount, unit] = wholeUnit(seconds);
    const options: Intl.NumberFormatOptions = { style: "unit", unit, unitDisplay: "long" };
    try {
      words = new Intl.NumberFormat(language, options).format(amount);
    } catch {
      words = new Intl.NumberFormat("en", options).format(amount);
    }
    if (byLifetime.size >= 256) byLifetime.clear();
    byLifetime.set(seconds, words);
  }
  return words;
}

const described = new Map<string, Map<number, string>>();
