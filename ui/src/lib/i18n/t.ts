// Words from the catalog, in the page's language. Hand-written rather than a message-format
// library: the Rust side reads the same files the same way (crates/core/src/words/catalog.rs),
// and both need only `{name}` holes and plurals by Intl category.
import { english, type Catalog } from './catalog';
import { language, tag } from './language.svelte';
import type { Language } from '../api';

type Part = keyof Catalog & string;
/** Every key the catalog has, `<part>.<name>`: asking for another one fails the type check. */
export type Key = { [P in Part]: `${P}.${keyof Catalog[P] & string}` }[Part];

type Plural = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
type Message = string | Plural;
export type Values = Record<string, string | number>;

const catalogs: Partial<Record<Language, Catalog>> = { en: english };

/** Makes `lang`'s words available before the page speaks it. Until then, and if its chunk
 * cannot be loaded, `t()` answers in English. */
export async function loadLanguage(lang: Language): Promise<void> {
  if (lang === 'de' && !catalogs.de) catalogs.de = (await import('./german')).german;
}

function lookup(catalog: Catalog, key: string): Message | undefined {
  const dot = key.indexOf('.');
  const part = (catalog as Record<string, Record<string, Message>>)[key.slice(0, dot)];
  return part?.[key.slice(dot + 1)];
}

/** The message `key` in the page's language, its `{holes}` filled from `values`; a plural
 * message is chosen by `values.count`. */
export function t(key: Key, values: Values = {}): string {
  const lang = language.current;
  const message = lookup(catalogs[lang] ?? english, key) ?? lookup(english, key) ?? key;
  const sentence =
    typeof message === 'string'
      ? message
      : (message[new Intl.PluralRules(tag(lang)).select(Number(values.count ?? 0))] ?? message.other);
  return sentence.replace(/\{(\w+)\}/g, (hole, name: string) => {
    const value = values[name];
    if (value === undefined) return hole;
    return typeof value === 'number' ? new Intl.NumberFormat(tag(lang)).format(value) : value;
  });
}
