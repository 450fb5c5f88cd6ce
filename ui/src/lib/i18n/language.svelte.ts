// The language the page speaks now. Rust decides it (the choice in Settings, or the system's)
// and the page follows; every `t()` reads it, so words change in place when it changes.
import type { Language } from '../api';

export const language = $state<{ current: Language }>({ current: 'en' });

/** The BCP 47 tag Intl and `<html lang>` want. */
export function tag(lang: Language = language.current): string {
  return lang === 'de' ? 'de-DE' : 'en-US';
}

export function speak(lang: Language): void {
  language.current = lang;
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}
