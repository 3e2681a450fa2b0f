/**
 * What the boilerplate rules (boilerplate.ts) read of a pasted text's lines: which are code (never
 * touched), quote markers, and whether a line holds a value `balanced` keeps.
 */
import { RETAINED_CLASSES } from './patterns.ts';

export const QUOTE_PREFIX_RE = /^[ \t]{0,3}(?:>[ \t]?)+/;

/** A quote's attribution line ending a line: "On Monday, Ann wrote:", "Am 3. Mai schrieb Ann:". */
export const ATTRIBUTION_RE = /(?:wrote|writes|schrieb|a écrit|escribió|scrisse|ha scritto|escreveu|schreef|skrev|napisał)[ \t]*:$/i;
const FENCE_RE = /^[ \t]{0,3}(`{3,}|~{3,})/;
const INDENTED_RE = /^(?: {4}|\t)/;
/** Mobile, footer and chrome lines are short: longer lines skip those tests. */
export const LINE_RULE_MAX_CHARS = 300;

/** True when `s` holds a value `balanced` must keep (a number, URL, e-mail, quoted string, …). */
export function holdsValue(s: string): boolean {
  for (const re of Object.values(RETAINED_CLASSES)) {
    re.lastIndex = 0;
    if (re.test(s)) {
      re.lastIndex = 0;
      return true;
    }
  }
  return false;
}

/** Index of the first character of `line` that is not a space or tab. */
export function firstNonBlank(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9) i++;
  return i;
}

/** Per line: 1 inside a fence or indented code (never touched), else 0. */
export function codeLines(lines: readonly string[]): Uint8Array {
  const n = lines.length;
  const kind = new Uint8Array(n);
  let fence = '';
  for (let i = 0; i < n; i++) {
    const line = lines[i]!;
    const c = line.charCodeAt(firstNonBlank(line));
    const mayFence = c === 96 || c === 126; // ` ~
    if (fence) {
      kind[i] = 1;
      const m = mayFence ? FENCE_RE.exec(line) : null;
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.trim() === m[1]) fence = '';
      continue;
    }
    const m = mayFence ? FENCE_RE.exec(line) : null;
    if (m) {
      fence = m[1]!;
      kind[i] = 1;
      continue;
    }
    const c0 = line.charCodeAt(0);
    if ((c0 === 32 || c0 === 9) && INDENTED_RE.test(line) && !QUOTE_PREFIX_RE.test(line)) kind[i] = 1;
  }
  return kind;
}

/** Strips emphasis and bracket markers around a short line (the rules run before emphasis removal). */
export function plainLine(body: string): string {
  return body.replace(/^[*_\[( \t]+|[*_\]) \t]+$/g, '').replace(/[*_]{2,}/g, '');
}
