// The catalog is complete in both languages: the same keys, the same holes, plurals with
// `one` and `other`. (The type check holds the page's keys to the English catalog; the Rust
// side checks the same files in crates/core/src/words/catalog/tests.rs.)
import { english } from './catalog';
import { german } from './german';
import { speak, t, intl } from '.';

type Messages = Record<string, Record<string, unknown>>;

function keys(catalog: Messages): string[] {
  return Object.entries(catalog).flatMap(([part, messages]) => Object.keys(messages).map((k) => `${part}.${k}`)).sort();
}

function holes(message: unknown): string[] {
  const text = typeof message === 'string' ? message : Object.values(message as object).join(' ');
  return [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
}

function message(catalog: Messages, key: string): unknown {
  const dot = key.indexOf('.');
  return catalog[key.slice(0, dot)][key.slice(dot + 1)];
}

describe('the catalog', () => {
  afterEach(() => speak('en'));

  it('has every key in both languages', () => {
    expect(keys(german as Messages)).toEqual(keys(english as Messages));
  });

  it('fills the same holes in both languages and gives every plural one and other', () => {
    for (const key of keys(english as Messages)) {
      const en = message(english as Messages, key);
      const de = message(german as Messages, key);
      expect(holes(de), key).toEqual(holes(en));
      for (const m of [en, de]) {
        if (typeof m !== 'string') expect(Object.keys(m as object), key).toEqual(expect.arrayContaining(['one', 'other']));
        else expect(m.trim(), key).not.toBe('');
      }
    }
  });

  it('speaks the chosen language, fills holes and picks plurals by count', () => {
    expect(t('tray.needsYou', { count: 1 })).toBe('1 thing needs you');
    expect(t('tray.needsYou', { count: 3 })).toBe('3 things need you');
    speak('de');
    expect(t('settings.title')).toBe('Einstellungen');
    expect(t('tray.needsYou', { count: 1 })).toBe('1 Sache braucht dich');
    expect(t('tray.needsYou', { count: 1200 })).toBe('1.200 Sachen brauchen dich');
  });

  it('says money the language’s way', () => {
    expect(intl.money(1.5)).toBe('$1.50');
    expect(intl.money(0.004)).toBe('< $0.01');
    speak('de');
    expect(intl.money(1.5)).toBe('1,50\u00a0$');
  });
});
