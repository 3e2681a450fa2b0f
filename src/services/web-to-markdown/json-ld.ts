/**
 * The article text a page states in its schema.org JSON-LD (`<script type="application/ld+json">`
 * with an `articleBody`): what a page rendered by scripts (a single-page app whose body is an
 * empty shell and a loading skeleton) still carries for search engines. Read only by the fallback
 * of core.ts, when the page shows next to nothing.
 *
 * The scan is linear (indexOf, no backtracking pattern) and bounded: at most MAX_SCRIPTS scripts,
 * each parsed only when at most MAX_SCRIPT_CHARS long, walked to MAX_JSON_DEPTH.
 */

/** JSON-LD scripts read per page, at most. */
const MAX_SCRIPTS = 32;
/** A JSON-LD script longer than this is not parsed (a page's own is a few KB to a few hundred). */
const MAX_SCRIPT_CHARS = 2 * 1024 * 1024;
/** How deep `@graph` and nested items are searched for an `articleBody`. */
const MAX_JSON_DEPTH = 8;

/**
 * The longest `articleBody` string in the page's JSON-LD, trimmed, or null when there is none.
 *
 * @example longestArticleBody('<script type="application/ld+json">{"@type":"NewsArticle","articleBody":"Text."}</script>') // 'Text.'
 */
export function longestArticleBody(html: string): string | null {
  const lower = html.toLowerCase();
  let best: string | null = null;
  let from = 0;
  for (let seen = 0; seen < MAX_SCRIPTS; ) {
    const open = lower.indexOf('<script', from);
    if (open < 0) break;
    const tagEnd = lower.indexOf('>', open + 7);
    if (tagEnd < 0) break;
    const close = lower.indexOf('</script', tagEnd + 1);
    const end = close < 0 ? html.length : close;
    from = close < 0 ? html.length : close + 8;
    if (!lower.slice(open + 7, tagEnd).includes('application/ld+json')) continue;
    seen++;
    if (end - tagEnd - 1 > MAX_SCRIPT_CHARS) continue;
    let value: unknown;
    try {
      value = JSON.parse(html.slice(tagEnd + 1, end).trim().replace(/^<!--|-->$/g, ''));
    } catch {
      continue;
    }
    const found = articleBodyIn(value, 0);
    if (found !== null && (best === null || found.length > best.length)) best = found;
  }
  return best;
}

function articleBodyIn(value: unknown, depth: number): string | null {
  if (depth > MAX_JSON_DEPTH || value === null || typeof value !== 'object') return null;
  let best: string | null = null;
  const take = (s: string | null): void => {
    if (s !== null && (best === null || s.length > best.length)) best = s;
  };
  if (Array.isArray(value)) {
    for (const item of value) take(articleBodyIn(item, depth + 1));
    return best;
  }
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'articleBody' && typeof v === 'string') take(v.trim() || null);
    else if (typeof v === 'object') take(articleBodyIn(v, depth + 1));
  }
  return best;
}

/**
 * An `articleBody` as an HTML document for the extractor. Some CMSs put the rendered body there:
 * with block tags it is read as HTML; otherwise each blank-line-separated block (each line when
 * there are no blank lines) is a paragraph, its inline tags kept when it has some and `<` escaped
 * when it has none. Entities are left for the parser to decode, as CMSs often write them into the
 * JSON.
 */
export function articleBodyDocument(body: string): string {
  if (/<\/?(?:p|div|br|h[1-6]|ul|ol|li|blockquote|table|section|figure)[\s/>]/i.test(body)) return `<html><body><article>${body}</article></body></html>`;
  const markup = /<\/?[a-z][a-z0-9]*[\s/>]/i.test(body);
  const text = body.replace(/\r\n?/g, '\n');
  const blocks = (/\n[ \t]*\n/.test(text) ? text.split(/\n[ \t]*\n/) : text.split('\n')).map((b) => b.trim()).filter((b) => b !== '');
  return `<html><body><article>${blocks.map((b) => `<p>${markup ? b : b.replace(/</g, '&lt;')}</p>`).join('')}</article></body></html>`;
}
