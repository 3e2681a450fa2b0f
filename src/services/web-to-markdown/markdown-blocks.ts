/**
 * Block-level Markdown of the renderer (render.ts) that needs no rendering state: list item
 * indentation, fenced code blocks from <pre>, and the row and cell reading of tables.
 */
import type { ElementNode } from './dom.ts';

const CODE_LANG = /(?:^|\s)(?:lang(?:uage)?-|highlight-(?:source-)?|brush:\s*)([A-Za-z0-9_+#.-]+)/;
/** Wrappers above a <pre> read for its language. */
const WRAPPERS_READ = 3;
/** Names a highlighter's wrapper classes hold after `highlight-` that are no language. */
const NOT_A_LANGUAGE: ReadonlySet<string> = new Set(['default', 'none', 'text', 'plain', 'block', 'wrapper', 'container', 'box', 'source']);

export function indentItem(marker: string, body: string): string {
  const pad = ' '.repeat(marker.length);
  return marker + body.split('\n').map((l, i) => (i === 0 || l === '' ? l : pad + l)).join('\n');
}

export function codeBlock(pre: ElementNode): string {
  let lang = CODE_LANG.exec(pre.attrs.class ?? '')?.[1] ?? pre.attrs['data-lang'] ?? pre.attrs['data-language'];
  if (lang === undefined) {
    const code = pre.children.find((c): c is ElementNode => typeof c !== 'string' && c.tag === 'code');
    if (code) lang = CODE_LANG.exec(code.attrs.class ?? '')?.[1] ?? code.attrs['data-lang'];
  }
  // The highlighter's wrappers name it (Jekyll's `div.language-cpp.highlighter-rouge`, Sphinx's
  // `div.highlight-python > div.highlight`, GitHub's `div.highlight.highlight-source-python`).
  for (let e = pre.parent, up = 0; lang === undefined && e !== null && up < WRAPPERS_READ; e = e.parent, up++) {
    const name = CODE_LANG.exec(e.attrs.class ?? '')?.[1];
    if (name !== undefined && !NOT_A_LANGUAGE.has(name.toLowerCase())) lang = name;
  }
  // trimEnd, not /\s+$/: the regex retries from every position of a long blank run, O(n²).
  const text = preText(pre).replace(/^\n/, '').trimEnd();
  // One backtick more than the longest run in the code, and at least three (CommonMark: a fence
  // closes only on a run as long). Found by one scan: lengthening the fence until the code no
  // longer holds it searched the code once per backtick of the run, O(n²) on a long run.
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${lang ?? ''}\n${text}\n${fence}`;
}

/** The length of the longest run of backticks in `s` (0 without one). */
function longestBacktickRun(s: string): number {
  let longest = 0;
  for (let i = s.indexOf('`'); i !== -1; ) {
    let j = i + 1;
    while (j < s.length && s.charCodeAt(j) === 0x60) j++;
    if (j - i > longest) longest = j - i;
    i = s.indexOf('`', j);
  }
  return longest;
}

function preText(el: ElementNode): string {
  let s = '';
  for (const c of el.children) {
    if (typeof c === 'string') s += c;
    else if (c.tag === 'br') s += '\n';
    else {
      s += preText(c);
      if (c.tag === 'div' || c.tag === 'p' || c.tag === 'li' || c.tag === 'tr') s += '\n';
    }
  }
  return s;
}

export function collectRows(el: ElementNode, rows: ElementNode[][]): void {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.tag === 'tr') {
      const cells = c.children.filter((x): x is ElementNode => typeof x !== 'string' && (x.tag === 'td' || x.tag === 'th'));
      if (cells.length > 0) rows.push(cells);
    } else if (c.tag === 'thead' || c.tag === 'tbody' || c.tag === 'tfoot') {
      collectRows(c, rows);
    }
  }
}

export function span(cell: ElementNode): number {
  const n = Number.parseInt(cell.attrs.colspan ?? '1', 10);
  return Number.isFinite(n) && n > 1 && n <= 50 ? n : 1;
}

export function hasDescendant(el: ElementNode, tag: string): boolean {
  for (const c of el.children) if (typeof c !== 'string' && (c.tag === tag || hasDescendant(c, tag))) return true;
  return false;
}
