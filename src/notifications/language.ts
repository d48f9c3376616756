import type { LanguageMessages, MessageTemplates } from "../ports/config.js";
import type { NotificationKind } from "../ports/storage.js";
import { builtInMessages, fallbackLanguage } from "./templates/index.js";

export interface ChosenTemplate<K extends NotificationKind> {
  /** The tag whose template was chosen, as written in the template set ("de", "de-CH"). */
  readonly language: string;
  readonly template: NonNullable<LanguageMessages[K]>;
}

/** "de-CH-1996" -> ["de-ch-1996", "de-ch", "de"]: the tag, then ever shorter prefixes of it. */
function candidateTags(locale: string): string[] {
  const subtags = locale.toLowerCase().split(/[-_]/).filter((subtag) => subtag !== "");
  return subtags.map((_, index) => subtags.slice(0, subtags.length - index).join("-"));
}

function findByTag(templates: MessageTemplates, tag: string): [string, LanguageMessages] | undefined {
  return Object.entries(templates).find(([key]) => key.toLowerCase() === tag);
}

function lookUp<K extends NotificationKind>(
  templates: MessageTemplates,
  tag: string,
  kind: K,
): ChosenTemplate<K> | undefined {
  const found = findByTag(templates, tag);
  const template = found?.[1][kind];
  return found === undefined || template === undefined ? undefined : { language: found[0], template };
}

/**
 * The template for `kind` in the user's language: the most specific tag of `locale` that the host's
 * or the built-in templates have (the host's first), else English. `und` and unknown tags get English.
 */
export function chooseTemplate<K extends NotificationKind>(
  kind: K,
  locale: string,
  hostTemplates: MessageTemplates = {},
): ChosenTemplate<K> | undefined {
  for (const tag of [...candidateTags(locale), fallbackLanguage]) {
    const chosen = lookUp(hostTemplates, tag, kind) ?? lookUp(builtInMessages, tag, kind);
    if (chosen !== undefined) return chosen;
  }
  return undefined;
}
