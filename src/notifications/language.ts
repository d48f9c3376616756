import type { LanguageMessages, MessageTemplates } from "../ports/config.js";
import type { NotificationKind } from "../ports/storage.js";
import { canonicalLanguageTag } from "../core/rules/language-tag.js";
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

/**
 * A host's key as the tags it is compared with are written: canonical (users' languages are
 * stored so: `iw` is `he`, `tl` is `fil`), in lower case. The built-in keys are canonical already.
 */
function hostKeyTag(key: string): string {
  return canonicalLanguageTag(key).toLowerCase();
}

/** The template for `kind` under the first key of `templates` that is `tag` and has one. */
function lookUp<K extends NotificationKind>(
  templates: MessageTemplates,
  tag: string,
  kind: K,
  keyTag: (key: string) => string,
): ChosenTemplate<K> | undefined {
  // The own members in Object.entries' order, without an array of pairs for every lookup.
  for (const key in templates) {
    if (!Object.hasOwn(templates, key) || keyTag(key) !== tag) continue;
    const template = (templates[key] as LanguageMessages)[kind];
    if (template !== undefined) return { language: key, template };
  }
  return undefined;
}

const lowerCase = (key: string): string => key.toLowerCase();

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
    const chosen = (hostTemplates === undefined ? undefined : lookUp(hostTemplates, tag, kind, hostKeyTag)) ?? lookUp(builtInMessages, tag, kind, lowerCase);
    if (chosen !== undefined) return chosen;
  }
  return undefined;
}
