/**
 * sanitized_text: the input with every PII/secret value replaced by a numbered typed placeholder
 * (`<EMAIL_1>`, `<IBAN_2>`; the same value keeps its number within one text) and every invisible
 * character (zero-width, bidi controls, tag characters, variation-selector runs) removed.
 */
import type { Redaction } from './types.ts';

export function redact(src: string, redactions: readonly Redaction[], invisible: readonly { start: number; end: number }[]): string {
  if (redactions.length === 0 && invisible.length === 0) return src;
  type Cut = { start: number; end: number; placeholder: string };
  const sorted = [...redactions].sort((a, b) => a.start - b.start || b.end - a.end);
  const numbers = new Map<string, Map<string, number>>();
  const cuts: Cut[] = [];
  let lastEnd = -1;
  for (const r of sorted) {
    if (r.start < lastEnd) continue;
    let byKey = numbers.get(r.entity);
    if (byKey === undefined) numbers.set(r.entity, (byKey = new Map()));
    let n = byKey.get(r.key);
    if (n === undefined) byKey.set(r.key, (n = byKey.size + 1));
    cuts.push({ start: r.start, end: r.end, placeholder: `<${r.entity}_${n}>` });
    lastEnd = r.end;
  }
  // Both lists are in text order (invisible ranges come from one left-to-right pass): merge them.
  const parts: string[] = [];
  let pos = 0;
  const apply = (c: { start: number; end: number; placeholder: string }): void => {
    if (c.end <= pos) return;
    const start = Math.max(c.start, pos);
    parts.push(src.slice(pos, start), c.start >= pos ? c.placeholder : '');
    pos = c.end;
  };
  let a = 0;
  let b = 0;
  while (a < cuts.length || b < invisible.length) {
    const r = cuts[a];
    const v = invisible[b];
    if (v === undefined || (r !== undefined && (r.start < v.start || (r.start === v.start && r.end >= v.end)))) {
      apply(r!);
      a++;
    } else {
      apply({ start: v.start, end: v.end, placeholder: '' });
      b++;
    }
  }
  const out = parts.join('');
  return out + src.slice(pos);
}
