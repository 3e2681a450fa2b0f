/**
 * API-09 structure pass (structure.ts): HTML leftovers in prose. Tags of known elements, comments
 * and doctypes go, links and images become Markdown, table rows pipe rows; entities are decoded
 * where the text shows HTML. JSON, pipe-table rows and indented code are left as they are.
 */
import { INDENTED_CODE_RE } from './patterns.ts';
import { jsonBudget, jsonEnd, jsonStart } from './json-compact.ts';
import { PIPE_ROW_RE, tableRows } from './pipe-tables.ts';

/**
 * cleanHtml over the runs of lines that are not JSON, pipe-table rows or indented code: a "<b>"
 * inside a JSON string or a "<br>" inside a table cell is a value, not a leftover.
 */
export function cleanHtmlOutsideBlocks(text: string): string {
  if (!text.includes('<') && !text.includes('&')) return text;
  const lines = text.split('\n');
  const budget = jsonBudget(lines);
  let out = '';
  let run: string[] = [];
  const flush = (): void => {
    if (run.length > 0) out += cleanHtml(run.join('\n')) + '\n';
    run = [];
  };
  const rows = text.includes('|') ? tableRows(lines) : undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const col = line.includes('{') || line.includes('[') ? jsonStart(line) : -1;
    const end = col === -1 ? -1 : jsonEnd(lines, i, col, budget);
    if (end !== -1) {
      flush();
      out += lines.slice(i, end + 1).join('\n') + '\n';
      i = end;
    } else if ((INDENTED_CODE_RE.test(line) && !continuesHtml(run, line)) || (line.includes('|') && (PIPE_ROW_RE.test(line) || rows?.[i] === 1))) {
      flush();
      out += line + '\n';
    } else run.push(line);
  }
  flush();
  return out.slice(0, -1);
}

const INDENTED_TAG_RE = /^[ \t]+<\/?([a-zA-Z][a-zA-Z0-9]*)\b/;

/**
 * An indented line that goes on an HTML block the text run ends with: it opens with an element's
 * tag and the run's last line is not blank and holds a tag. Pretty-printed HTML indents its rows
 * (`    <td>2019</td>`); as CommonMark reads it, an HTML block is not interrupted by indentation.
 */
function continuesHtml(run: readonly string[], line: string): boolean {
  const last = run[run.length - 1];
  if (last === undefined || last.trim() === '' || !last.includes('<')) return false;
  const m = INDENTED_TAG_RE.exec(line);
  return m !== null && HTML_ELEMENTS.has(m[1]!.toLowerCase());
}

/** HTML element names (the WHATWG list and a few legacy ones); `source`, `search`, `data`, `output`, `template`, `summary`, `title`, `header`, `main`, `section`, `article` are left out on purpose: prompts use them as their own XML-style tags. */
/** HTML's void elements: a closing tag of one (`</input>`) marks the name as a prompt's own tag ("<input>…</input>"). */
const VOID_ELEMENTS: ReadonlySet<string> = new Set(['area', 'base', 'col', 'embed', 'input', 'link', 'meta', 'param', 'source', 'track']);

/** The VOID_ELEMENTS names that `s` closes ("</input>"), case-insensitively. */
function voidsClosed(s: string): Set<string> {
  const out = new Set<string>();
  if (!s.includes('</')) return out;
  const lower = s.toLowerCase();
  for (const name of VOID_ELEMENTS) if (lower.includes(`</${name}>`)) out.add(name);
  return out;
}

const HTML_ELEMENTS: ReadonlySet<string> = new Set(
  (
    'a abbr acronym address area aside audio b bdi bdo big blockquote body br button canvas caption center cite code col colgroup ' +
    'dd del details dfn dialog div dl dt em embed fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 head hr html i iframe img input ins kbd ' +
    'label legend li link mark menu meta meter nav nobr noscript object ol optgroup option p param picture progress q rp rt ruby s samp select ' +
    'small span strike strong sub sup svg table tbody td tfoot th thead time tr track tt u ul var video wbr'
  ).split(' '),
);
const BLOCK_ELEMENTS: ReadonlySet<string> = new Set(
  'address aside blockquote body br center dd details dialog div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 head hr html li nav ol p table tbody tfoot thead ul'.split(' '),
);
/** Elements whose content is not text a reader sees (their content goes with them). */
const DROP_CONTENT: ReadonlySet<string> = new Set(['head', 'noscript', 'svg', 'select', 'button', 'canvas', 'object']);

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…', copy: '©', reg: '®', trade: '™',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', bull: '•', middot: '·', deg: '°', euro: '€', pound: '£',
  times: '×', divide: '÷', eacute: 'é', egrave: 'è', agrave: 'à', uuml: 'ü', ouml: 'ö', auml: 'ä', szlig: 'ß', ccedil: 'ç', shy: '',
  zwj: '\u200d', zwnj: '\u200c', thinsp: ' ', ensp: ' ', emsp: ' ', larr: '←', rarr: '→', frac12: '½', sect: '§', para: '¶',
};
const ENTITY_RE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,9}));/g;
const WORD_CHAR = (c: number): boolean => (c >= 48 && c <= 57) || ((c | 0x20) >= 97 && (c | 0x20) <= 122) || c === 95;

/** Attribute values of a tag's source (`<a href="x" class=y>`), lower-case names; hand-scanned. */
function attributes(tag: string, from: number): Map<string, string> {
  const attrs = new Map<string, string>();
  let k = from;
  const n = tag.length - 1; // before ">"
  while (k < n) {
    while (k < n && /[\s/]/.test(tag[k]!)) k++;
    const nameStart = k;
    while (k < n && !/[\s=/>]/.test(tag[k]!)) k++;
    const name = tag.slice(nameStart, k).toLowerCase();
    if (name === '') break;
    while (k < n && /\s/.test(tag[k]!)) k++;
    let value = '';
    if (tag[k] === '=') {
      k++;
      while (k < n && /\s/.test(tag[k]!)) k++;
      const q = tag[k];
      if (q === '"' || q === "'") {
        const e = tag.indexOf(q, k + 1);
        const end = e === -1 || e > n ? n : e;
        value = tag.slice(k + 1, end);
        k = end + 1;
      } else {
        const s = k;
        while (k < n && !/\s/.test(tag[k]!)) k++;
        value = tag.slice(s, k);
      }
    }
    attrs.set(name, value);
  }
  return attrs;
}

/** The end (after ">") of a tag opening at `at`, quotes respected, within 2,000 characters; -1 if none. */
function tagEnd(s: string, at: number): number {
  let q = 0;
  const limit = Math.min(s.length, at + 2000);
  for (let k = at + 1; k < limit; k++) {
    const c = s.charCodeAt(k);
    if (q !== 0) {
      if (c === q) q = 0;
      continue;
    }
    if (c === 34 || c === 39) q = c;
    else if (c === 62) return k + 1;
    else if (c === 60) return -1;
  }
  return -1;
}

/**
 * Removes HTML leftovers from prose (inline code spans skipped). Returns `s` itself when it holds
 * none. Entities are decoded when a tag was found or the text holds 3+ entities, except `&lt;`
 * before a letter, "/" or "!" and `&amp;` before an entity's spelling (decoding those would make
 * a tag or an entity that the next pass would read differently).
 */
export function cleanHtml(s: string): string {
  /** Void elements the text closes (`<input>…</input>`): a prompt's own tags, not HTML. */
  let closedVoids: Set<string> | undefined;
  let out = '';
  // Whether `out` is empty or ends with a line break, kept as text is added: asking `out` itself
  // (endsWith) flattens the growing string each time, O(n²) over a text of many block tags.
  let atLineStart = true;
  const add = (x: string): void => {
    if (x === '') return;
    out += x;
    atLineStart = x.charCodeAt(x.length - 1) === 10;
  };
  let copied = 0;
  let tags = 0;
  let href: string | undefined; // of the open <a>, written after its text
  let dropUntil = ''; // closing tag name whose content is skipped
  let row = false; // inside <tr>: cells end with "|"
  let cellSpan = 1; // columns the open cell spans (colspan): its closing writes as many "|"
  let tables = 0; // open <table> elements: white space between their rows is layout
  const code = s.includes('`') ? codeSpans(s) : [];
  const named = s.includes('id=') ? referencedIds(s) : undefined;
  /** Per element name, the tags kept as written for their id that are still open: their closing tags stay too. */
  let keptOpen: Map<string, number> | undefined;
  let span = 0; // the first code span that does not end before `at`
  let commentEnd = -2; // the last "-->" found (-1: none after the last search)
  for (let at = s.indexOf('<'); at !== -1; at = s.indexOf('<', at + 1)) {
    // Inside inline code: not markup.
    while (span < code.length && code[span]![1] <= at) span++;
    if (span < code.length && code[span]![0] <= at) continue;
    if (s.startsWith('<!--', at)) {
      if (commentEnd !== -1 && commentEnd < at + 4) commentEnd = s.indexOf('-->', at + 4);
      const end = commentEnd;
      if (end === -1) continue;
      if (dropUntil === '') add(s.slice(copied, at));
      copied = end + 3;
      at = end + 2;
      tags++;
      continue;
    }
    const next = s.charCodeAt(at + 1);
    if (next === 33 /* ! */ || next === 63 /* ? */) {
      // <!DOCTYPE html>, <?xml ...?>
      if (!/^<(?:!doctype\s|\?xml\s)/i.test(s.slice(at, at + 10))) continue;
      const end = tagEnd(s, at);
      if (end === -1) continue;
      if (dropUntil === '') add(s.slice(copied, at));
      copied = end;
      at = end - 1;
      tags++;
      continue;
    }
    const closing = next === 47;
    let k = at + (closing ? 2 : 1);
    const nameStart = k;
    while (k < s.length && ((s.charCodeAt(k) | 0x20) >= 97 && (s.charCodeAt(k) | 0x20) <= 122 || (s.charCodeAt(k) >= 48 && s.charCodeAt(k) <= 57))) k++;
    const name = s.slice(nameStart, k).toLowerCase();
    if (!HTML_ELEMENTS.has(name) || (VOID_ELEMENTS.has(name) && (closedVoids ??= voidsClosed(s)).has(name))) continue;
    const after = s.charCodeAt(k);
    if (!(after === 62 || after === 47 || after === 32 || after === 9 || after === 10)) continue;
    const end = tagEnd(s, at);
    if (end === -1) continue;
    const source = s.slice(at, end);
    const nameEnd = k - at; // in `source`
    // `List<b>` is a generic, not a tag: an opening tag right after a word needs attributes or to be a void element.
    if (!closing && at > 0 && WORD_CHAR(s.charCodeAt(at - 1)) && !source.includes('=') && !/^(?:br|wbr|hr|img)$/.test(name)) continue;
    tags++;
    if (dropUntil !== '') {
      if (closing && name === dropUntil) {
        dropUntil = '';
        copied = end;
      }
      at = end - 1;
      continue;
    }
    // A tag whose id the prompt names elsewhere (a web agent's `click("el-42")`) stays as written:
    // without its id the action would point at nothing.
    if (named !== undefined && (closing ? (keptOpen?.get(name) ?? 0) > 0 : source.includes('id'))) {
      const id = closing ? undefined : attributes(source, nameEnd).get('id');
      if (closing || (id !== undefined && named.has(id))) {
        (keptOpen ??= new Map()).set(name, (keptOpen.get(name) ?? 0) + (closing ? -1 : 1));
        add(s.slice(copied, end));
        copied = end;
        at = end - 1;
        continue;
      }
    }
    const chunk = s.slice(copied, at);
    // Inside a table row the source's line breaks and indentation between cells are layout, and
    // so are those between a table's rows (a pretty-printed table's indented <tr> lines).
    // A cell's own "|" is escaped: unescaped it would split the cell in two.
    add(row ? (chunk.trim() === '' ? '' : chunk.replace(/\s+/g, ' ').replace(/(?<!\\)\|/g, '\\|')) : tables > 0 && chunk.trim() === '' ? '' : chunk);
    copied = end;
    at = end - 1;
    if (!closing && DROP_CONTENT.has(name) && !source.endsWith('/>')) {
      dropUntil = name;
      continue;
    }
    let rep = replacement(name, closing, source, nameEnd);
    // Inside a table row a block tag (`<br>`, `<p>`, `<div>` in a cell) is a space: a line break
    // would end the row there.
    if (row && rep.includes('\n')) rep = rep.replace(/\n(?:#+ |- )?/g, ' ');
    add(rep.charCodeAt(0) === 10 && atLineStart ? rep.slice(1) : rep);
    if (name === 'a') {
      if (!closing) {
        if (href !== undefined) add(`](${href})`);
        const h = attributes(source, nameEnd).get('href');
        href = h !== undefined && h !== '' && !/^\s*javascript:/i.test(h) ? h.trim() : undefined;
        if (href !== undefined) add('[');
      } else if (href !== undefined) {
        add(`](${href})`);
        href = undefined;
      }
    } else if (name === 'table') {
      tables = closing ? Math.max(0, tables - 1) : tables + 1;
    } else if (name === 'tr') {
      row = !closing;
      add(closing ? '' : atLineStart ? '|' : '\n|');
    } else if ((name === 'td' || name === 'th') && row) {
      // A cell that spans columns closes as many of them, so the cells after it stay in their columns.
      if (!closing) cellSpan = colspan(source, nameEnd);
      else {
        add('|'.repeat(cellSpan));
        cellSpan = 1;
      }
    }
  }
  if (href !== undefined) add(`](${href})`);
  if (tags === 0 && !s.includes('&')) return s;
  add(dropUntil === '' ? s.slice(copied) : '');
  if (tags === 0) {
    const count = s.match(ENTITY_RE)?.length ?? 0;
    return count >= 3 ? decodeEntities(s) : s;
  }
  return decodeEntities(out);
}

/** An `id` attribute's value that reads as an identifier (a digit, `-` or `_` in it): group 1. */
const ID_ATTR_RE = /\bid[ \t]*=[ \t]*["']([A-Za-z0-9]*[-_0-9][-_A-Za-z0-9]*)["']/g;
const IDENTIFIER_RE = /[-_A-Za-z0-9]+/g;

/**
 * The id values of `s`'s tags that `s` names more often than its tags carry them: ids an agent's
 * actions or the text refer to. One scan for the ids, one over the identifier-like words.
 */
function referencedIds(s: string): Set<string> | undefined {
  const carried = new Map<string, number>();
  for (const m of s.matchAll(ID_ATTR_RE)) carried.set(m[1]!, (carried.get(m[1]!) ?? 0) + 1);
  if (carried.size === 0) return undefined;
  const seen = new Map<string, number>();
  for (const m of s.matchAll(IDENTIFIER_RE)) if (carried.has(m[0])) seen.set(m[0], (seen.get(m[0]) ?? 0) + 1);
  let named: Set<string> | undefined;
  for (const [id, n] of seen) if (n > carried.get(id)!) (named ??= new Set()).add(id);
  return named;
}

/** MAX_COLSPAN bounds what a cell may claim: HTML's own limit is 1000. */
const MAX_COLSPAN = 1000;

/** The columns a <td>/<th> tag spans: its colspan, 1 without one or when it is not a positive number. */
function colspan(source: string, nameEnd: number): number {
  if (!/colspan/i.test(source)) return 1;
  const n = Number.parseInt(attributes(source, nameEnd).get('colspan') ?? '', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, MAX_COLSPAN) : 1;
}

function replacement(name: string, closing: boolean, source: string, nameEnd: number): string {
  if (name === 'img') {
    if (closing) return '';
    const a = attributes(source, nameEnd);
    const src = a.get('src');
    const alt = a.get('alt') ?? '';
    return src ? `![${alt}](${src.trim()})` : alt;
  }
  // A checkbox or radio button says which option is chosen: `[x]` / `[ ]`, as GFM task lists write it.
  if (name === 'input') {
    if (closing || !/type\s*=\s*["']?(?:checkbox|radio)/i.test(source)) return '';
    return attributes(source, nameEnd).has('checked') ? '[x] ' : '[ ] ';
  }
  // An element's `aria-label` that holds a number is its text for a reader ("4.6 out of 5 stars" on
  // an icon row): a value, which would go with the tag. A label without one ("Breadcrumb") goes.
  if (!closing && source.includes('aria-label')) {
    const label = attributes(source, nameEnd).get('aria-label')?.trim() ?? '';
    const text = /\d/.test(label) ? label + ' ' : '';
    if (text !== '') return (BLOCK_ELEMENTS.has(name) ? '\n' : '') + text;
  }
  if (!closing && (name === 'iframe' || name === 'video' || name === 'audio' || name === 'embed' || name === 'track')) {
    const src = attributes(source, nameEnd).get('src');
    return src ? ` ${src.trim()} ` : '';
  }
  // Struck-through text is a value that no longer holds (a price before a sale, a withdrawn
  // clause): it stays marked, as GFM writes it.
  if (name === 's' || name === 'del' || name === 'strike') return '~~';
  if (/^h[1-6]$/.test(name)) return closing ? '\n' : '\n' + '#'.repeat(Number(name[1])) + ' ';
  if (name === 'li') return closing ? '\n' : '\n- ';
  if (name === 'td' || name === 'th' || name === 'tr') return '';
  if (BLOCK_ELEMENTS.has(name)) return '\n';
  return '';
}

/**
 * The inline code spans of `s` as [start, end) pairs in order: a backtick run opens a span that the
 * next run of the same length on the same line closes (a run with no such closer is literal).
 * One pass over the runs of each line, counting the runs of each length still ahead.
 */
function codeSpans(s: string): [number, number][] {
  const spans: [number, number][] = [];
  let lineStart = 0;
  while (lineStart <= s.length) {
    let lineEnd = s.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = s.length;
    const runs: number[] = []; // start, length pairs
    const ahead = new Map<number, number>();
    for (let k = s.indexOf('`', lineStart); k !== -1 && k < lineEnd; k = s.indexOf('`', k)) {
      let n = 1;
      while (s.charCodeAt(k + n) === 96) n++;
      runs.push(k, n);
      ahead.set(n, (ahead.get(n) ?? 0) + 1);
      k += n;
    }
    let open = -1;
    let openLen = 0;
    for (let r = 0; r < runs.length; r += 2) {
      const at = runs[r]!;
      const n = runs[r + 1]!;
      ahead.set(n, ahead.get(n)! - 1);
      if (open === -1) {
        if (ahead.get(n)! > 0) {
          open = at;
          openLen = n;
        }
      } else if (n === openLen) {
        spans.push([open, at + n]);
        open = -1;
      }
    }
    lineStart = lineEnd + 1;
  }
  return spans;
}

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY_RE, (m, dec: string | undefined, hex: string | undefined, name: string | undefined, offset: number, all: string) => {
    if (name !== undefined) {
      const ch = ENTITIES[name] ?? ENTITIES[name.toLowerCase()];
      if (ch === undefined) return m;
      const after = all.charCodeAt(offset + m.length);
      if (ch === '<' && (WORD_CHAR(after) || after === 47 || after === 33)) return m;
      if (ch === '&' && /^[A-Za-z#][A-Za-z0-9]{0,9};/.test(all.slice(offset + m.length, offset + m.length + 12))) return m;
      if (ch === '`') return m;
      return ch;
    }
    const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    if (code < 32 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) || code === 60 || code === 38 || code === 96) return m;
    return String.fromCodePoint(code);
  });
}
