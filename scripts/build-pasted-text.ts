/**
 * Builds the `web_page_text` records of eval/data/compress/structured_more.jsonl: the pages of its
 * `web_page_full` records as a reader pastes them after selecting the whole page in a browser
 * (text only: menus, share buttons, footers and banners included, no Markdown). The pages are
 * read from eval/data/extract (the scrapinghub records the `source_path` names); the text is an
 * approximation of the browser's `innerText`: block elements start lines, paragraphs and headings
 * are set off by a blank line, table cells are joined by tabs, whitespace collapses, and
 * scripts, styles, templates, SVG, <head>, form controls' options and elements marked `hidden`
 * or `display:none` are left out. First 8,000 characters (whole lines).
 *
 *   node --import tsx scripts/build-pasted-text.ts            # prints the records
 *   node --import tsx scripts/build-pasted-text.ts --write    # replaces them in structured_more.jsonl
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { extractFiles, loadRecords } from './eval-extract.ts';

const FILE = path.resolve(import.meta.dirname, '../eval/data/compress/structured_more.jsonl');
const MAX_CHARS = 8000;
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'iframe', 'select', 'option', 'datalist', 'object', 'canvas']);
const SPACED = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'pre', 'section', 'summary', 'table', 'tr', 'ul',
  ...SPACED,
]);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** The page's text as a browser copies it (see the module comment). */
export function pastedText(html: string): string {
  let out = '';
  let skip = 0; // depth inside a skipped element
  const stack: string[] = [];
  const breakLine = (blank: boolean): void => {
    out = out.replace(/[ \t]+$/, '');
    if (out === '') return;
    if (blank) out = out.replace(/\n*$/, '\n\n');
    else if (!out.endsWith('\n')) out += '\n';
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (VOID.has(name)) {
          if (skip === 0 && name === 'br') out = out.replace(/[ \t]+$/, '') + '\n';
          if (skip === 0 && name === 'hr') breakLine(false);
          return;
        }
        stack.push(name);
        const hidden = attrs.hidden !== undefined || /display\s*:\s*none|visibility\s*:\s*hidden/i.test(attrs.style ?? '');
        if (skip > 0 || SKIP.has(name) || hidden) {
          skip++;
          return;
        }
        if (BLOCK.has(name)) breakLine(SPACED.has(name));
        else if ((name === 'td' || name === 'th') && !out.endsWith('\n') && out !== '') out += '\t';
      },
      ontext(text) {
        if (skip > 0) return;
        const t = text.replace(/[\s\u00a0]+/g, ' ');
        if (t === ' ' && (out === '' || out.endsWith('\n') || out.endsWith(' ') || out.endsWith('\t'))) return;
        out += out.endsWith('\n') || out.endsWith('\t') || out === '' ? t.trimStart() : t;
      },
      onclosetag(name) {
        if (VOID.has(name)) return;
        // Close up to the matching element (implied closes of the tree rules are not modelled).
        const at = stack.lastIndexOf(name);
        if (at === -1) return;
        while (stack.length > at) {
          const top = stack.pop()!;
          if (skip > 0) {
            skip--;
            continue;
          }
          if (BLOCK.has(top)) breakLine(SPACED.has(top));
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  const lines = out.split('\n').map((l) => l.trim());
  const kept: string[] = [];
  let chars = 0;
  for (const l of lines) {
    if (l === '' && (kept.length === 0 || kept[kept.length - 1] === '')) continue;
    if (chars + l.length + 1 > MAX_CHARS) break;
    kept.push(l);
    chars += l.length + 1;
  }
  return kept.join('\n').trim();
}

function main(): void {
  const records = readFileSync(FILE, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
  const { records: pages } = loadRecords(extractFiles());
  const built: Record<string, unknown>[] = [];
  for (const r of records) {
    if (r.kind !== 'web_page_full') continue;
    const page = pages.find((p) => p.source === 'scrapinghub_more' && String(r.source_path).includes(p.id));
    if (page === undefined) throw new Error(`page of ${String(r.id)} not in eval/data/extract`);
    built.push({
      id: String(r.id).replace(/^pasted-page-/, 'page-text-'),
      kind: 'web_page_text',
      prompt: pastedText(page.html),
      source: r.source,
      source_path: r.source_path,
      commit: r.commit,
      license: r.license,
      note: 'the whole page as a browser copies it (text of every visible element: menus, share buttons, footers; no Markdown), built by scripts/build-pasted-text.ts, first 8,000 characters (whole lines)',
    });
  }
  if (!process.argv.includes('--write')) {
    for (const b of built) console.log(JSON.stringify(b));
    return;
  }
  const rest = records.filter((r) => r.kind !== 'web_page_text');
  writeFileSync(FILE, [...rest, ...built].map((r) => JSON.stringify(r)).join('\n') + '\n');
  console.log(`${built.length} web_page_text records written to ${path.relative(process.cwd(), FILE)}`);
}

if (import.meta.filename === process.argv[1] || process.argv[1]?.endsWith('build-pasted-text.ts')) main();
