// Parameter values as the run form edits them (text) and as the function receives them
// (typed like each parameter's default).
import type { Parameter } from '../../api';

export function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The text typed for a parameter, as the type of its default; text that does not fit stays text. */
export function fromText(text: string, parameter: Parameter): unknown {
  const d = parameter.defaultValue;
  if (typeof d === 'number') {
    const n = Number(text.trim());
    return text.trim() !== '' && Number.isFinite(n) ? n : text;
  }
  if (typeof d === 'boolean') return text.trim().toLowerCase() === 'true';
  if (d !== null && typeof d === 'object') {
    try { return JSON.parse(text); } catch { return text; }
  }
  return text;
}

/** Every parameter's value (the function's defaults are replaced whole, so all are passed). */
export function allInputs(parameters: Parameter[], texts: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(
    parameters.map((p) => [p.name, fromText(texts[p.name] ?? toText(p.defaultValue), p)]),
  );
}
