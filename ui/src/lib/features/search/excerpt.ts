// A hit's excerpt in parts, the matched words marked (Rust puts them between \u0002 and
// \u0003), so the page highlights them without reading any HTML.
export type Part = { text: string; found: boolean };

export function excerptParts(excerpt: string): Part[] {
  const parts: Part[] = [];
  let found = false;
  let text = '';
  for (const ch of excerpt) {
    if (ch === '\u0002' || ch === '\u0003') {
      if (text) parts.push({ text, found });
      text = '';
      found = ch === '\u0002';
    } else {
      text += ch;
    }
  }
  if (text) parts.push({ text, found });
  return parts;
}
