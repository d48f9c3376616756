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
  const seconds = Math.max(0, Math.round((Date.parse(expiresAt) - Date.parse(createdAt)) / 1000));
  const [amount, unit] = wholeUnit(Number.isFinite(seconds) ? seconds : 0);
  return unitFormat(language, unit).format(amount);
}

// Building an Intl.NumberFormat costs far more than formatting with one: keep them.
const formats = new Map<string, Intl.NumberFormat>();

function unitFormat(language: string, unit: DurationUnit): Intl.NumberFormat {
  const key = `${language}|${unit}`;
  let format = formats.get(key);
  if (format === undefined) {
    const options: Intl.NumberFormatOptions = { style: "unit", unit, unitDisplay: "long" };
    try {
      format = new Intl.NumberFormat(language, options);
    } catch {
      format = new Intl.NumberFormat("en", options);
    }
    if (formats.size >= 256) formats.clear();
    formats.set(key, format);
  }
  return format;
}
