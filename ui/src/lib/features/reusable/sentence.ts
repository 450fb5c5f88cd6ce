// A reusable task as a person reads it: the sentence it was made from, with its changeable
// words as named fields ("Look up the weather in ‹Place›"), and what a run gave back as plain
// text rather than JSON.
import type { Parameter, ReusableTask } from '../../api';
import { toText } from './inputs';
import { t } from '../../i18n';

export type Part = { kind: 'text'; text: string } | { kind: 'field'; name: string };

/** "Look up the weather in {{place}}" → the words, and the field `place`. */
export function sentenceParts(template: string): Part[] {
  const parts: Part[] = [];
  const re = /\{\{\s*([A-Za-z_][\w]*)\s*\}\}/g;
  let at = 0;
  for (const m of template.matchAll(re)) {
    if (m.index > at) parts.push({ kind: 'text', text: template.slice(at, m.index) });
    parts.push({ kind: 'field', name: m[1] });
    at = m.index + m[0].length;
  }
  if (at < template.length) parts.push({ kind: 'text', text: template.slice(at) });
  return parts;
}

/** A field's name as a label: `place` → "Place", `start_date` / `startDate` → "Start date". */
export function fieldLabel(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A saved task's title, or for one the service gave none, "Saved task" in the page's
 * language (saved untitled, as a conversation is). */
export function reusableTitle(title: string | null | undefined): string {
  return title?.trim() ? title : t('reusable.untitled');
}

/** The task's name with its fields shown as ‹Label›, so none is lost from the title. */
export function taskName(task: Pick<ReusableTask, 'template' | 'title'>): string {
  if (!task.template?.trim()) return reusableTitle(task.title);
  return sentenceParts(task.template)
    .map((p) => (p.kind === 'text' ? p.text : `‹${fieldLabel(p.name)}›`))
    .join('')
    .trim();
}

/**
 * The task with its changeable words filled in, as a person would type it: "Look up the
 * weather in Rome". A schedule made from a saved task runs this as an ordinary task. Words
 * the sentence has no place for follow it, named: "… (Units: metric)".
 */
export function filledTask(
  task: Pick<ReusableTask, 'template' | 'title' | 'parameters'>,
  texts: Record<string, string>,
): string {
  const value = (name: string) => {
    const p = task.parameters.find((q) => q.name === name);
    return (texts[name] ?? toText(p?.defaultValue)).trim();
  };
  const sentence = task.template
    ? sentenceParts(task.template).map((p) => (p.kind === 'text' ? p.text : value(p.name))).join('').trim()
    : task.title;
  const extra = extraParameters(task.template ?? '', task.parameters)
    .map((p) => `${fieldLabel(p.name)}: ${value(p.name)}`)
    .filter((line) => !line.endsWith(': '));
  return extra.length ? `${sentence} (${extra.join('; ')})` : sentence;
}

/** Parameters the sentence does not show: they get fields of their own after it. */
export function extraParameters(template: string, parameters: Parameter[]): Parameter[] {
  const shown = new Set(sentenceParts(template).flatMap((p) => (p.kind === 'field' ? [p.name] : [])));
  return parameters.filter((p) => !shown.has(p.name));
}

/** What a run gave back, as text a person reads: no quotes, real line breaks, no braces. */
export function plainResult(value: unknown, depth = 0): string {
  if (value === undefined || value === null || value === '') return depth === 0 ? t('reusable.nothingCameBack') : '—';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return depth === 0 ? t('reusable.nothingCameBack') : '—';
    return value.map((v) => (depth === 0 ? `• ${plainResult(v, depth + 1)}` : plainResult(v, depth + 1))).join(depth === 0 ? '\n' : ', ');
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return depth === 0 ? t('reusable.nothingCameBack') : '—';
    return entries
      .map(([k, v]) => `${fieldLabel(k)}: ${plainResult(v, depth + 1)}`)
      .join(depth === 0 ? '\n' : '; ');
  }
  return toText(value);
}
