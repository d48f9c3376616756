import type { MessageTemplates } from "../../ports/config.js";
import { germanMessages } from "./de.js";
import { englishMessages } from "./en.js";

/** The language every message falls back to. */
export const fallbackLanguage = "en";

/** The built-in messages, by lower-case language tag. */
export const builtInMessages: MessageTemplates = {
  en: englishMessages,
  de: germanMessages,
};
