import type { LanguageMessages, MessageTemplates } from "../ports/config.js";
import type { NotificationKind } from "../ports/storage.js";
import { builtInMessages, fallbackLanguage } from "./templates/index.js";

export interface ChosenTemplate<K extends NotificationKind> {
  /** The tag whose template was chosen, as written in the template set ("de", "de-CH"). */
  readonly language: string;
  readonly template: NonNullable<LanguageMessages[K]>;
}

/** "de-CH-1996" -> ["de-ch-1996", "de-ch", "de", "en"]: the tag, then ever shorter prefixes of it, then English. */
function candidateTags(locale: string): readonly string[] {
  // Few locales occur and every message asks: each is split once.
  let tags = candidates.get(locale);
  if (tags === undefined) {
    const subtags = locale.toLowerCase().split(/[-_]/).filter((subtag) => subtag !== "");
    tags = [...subtags.map((_, index) => subtags.slice(0, subtags.length - index).join("-")), fallbackLanguage];
    if (candidates.size >= 256) candidates.clear();
    candidates.set(locale, tags);
  }
  return tags;
}

const candidates = new Map<string, readonly string[]>();

/** The template for `kind` under the first key of `templates` that is `tag` in lower case. */
function lookUp<K extends NotificationKind>(
  templates: MessageTemplates,
  tag: string,
  kind: K,
): ChosenTemplate<K> | undefined {
  // The own members in Object.entries' order, without an array of pairs for every lookup.
  for (const key in templates) {
    if (!Object.hasOwn(templates, key) || key.toLowerCase() !== tag) continue;
    const template = (templates[key] as LanguageMessages)[kind];
    return template === undefined ? undefined : { language: key, template };
  }
  return undefined;
}

/**
 * The template for `kind` in the user's language: the most specific tag of `locale` that the host's
 * or the built-in templates have (the host's first), else English. `und` and unknown tags get English.
 */
export function chooseTemplate<K extends NotificationKind>(
  kind: K,
  locale: string,
  hostTemplates?: MessageTemplates,
): ChosenTemplate<K> | undefined {
  for (const tag of candidateTags(locale)) {
    const chosen = (hostTemplates === undefined ? undefined : lookUp(hostTemplates, tag, kind)) ?? lookUp(builtInMessages, tag, kind);
    if (chosen !== undefined) return chosen;
  }
  return undefined;
}
