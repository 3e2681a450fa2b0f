/**
 * Blocks the fallback of core.ts takes when the scored choice (score.ts) came out short: the block
 * under the page's headline, and the body's paragraphs minus boilerplate.
 */
import { isConsentNotice } from './boilerplate-lines.ts';
import type { ElementNode } from './dom.ts';
import { isStrongBoilerplate } from './class-hints.ts';
import { firstMatching, textOf } from './dom-queries.ts';
import { HEADING_TAGS, linkDensity, MIN_PARAGRAPH_CHARS, OWN_TEXT_CHARS } from './measure.ts';

/**
 * The last step of the fallback (trafilatura's "baseline"): the body's paragraphs minus
 * boilerplate, in document order. A paragraph is a p/pre/blockquote/dd, a div/section/td/li
 * without block children, or any element with >= 100 characters of its own text (text between
 * <br>s), of >= 25 characters and link density < 0.25; subtrees whose class/id says boilerplate
 * (`unlikely`, isStrongBoilerplate) are skipped. A heading joins when a paragraph after it is
 * kept. `measure` must have run on `body`.
 */
export function bodyParagraphs(body: ElementNode): ElementNode[] {
  const out: ElementNode[] = [];
  // The last heading passed: it joins when a paragraph after it is kept (a page of short
  // sections keeps their headings), and is replaced by the next heading otherwise.
  let heading: ElementNode | null = null;
  const walk = (el: ElementNode): void => {
    for (const c of el.children) {
      if (typeof c === 'string' || c.unlikely) continue;
      if (HEADING_TAGS.has(c.tag)) {
        heading = c.textLen > 0 && linkDensity(c) < 0.5 && !isStrongBoilerplate(c) ? c : null;
        continue;
      }
      if (c.textLen < MIN_PARAGRAPH_CHARS || isStrongBoilerplate(c)) continue;
      const leaf = c.tag === 'p' || c.tag === 'pre' || c.tag === 'blockquote' || c.tag === 'dd' || (!c.hasBlock && (c.tag === 'div' || c.tag === 'section' || c.tag === 'td' || c.tag === 'li')) || c.ownText >= OWN_TEXT_CHARS;
      if (leaf) {
        // A consent notice whose markup names no cookie (a consent manager's own ids) is read by its text.
        if (linkDensity(c) < 0.25 && !(c.textLen <= 600 && isConsentNotice(textOf(c)))) {
          if (heading !== null) out.push(heading);
          heading = null;
          out.push(c);
        }
      } else {
        walk(c);
      }
    }
  };
  walk(body);
  return out;
}

/** Text beyond the headline that makes a block around it the article's (two sentences of a brief). */
const HEADLINE_BLOCK_TEXT = 100;

/**
 * The nearest ancestor of the page's headline (the first <h1> whose text is the page's title, or
 * begins it, or is begun by it) that holds at least HEADLINE_BLOCK_TEXT characters besides it,
 * below the body: the article under its headline. Null without such an <h1> (a site logo in an
 * <h1> is not the headline), or when only the body holds more. `measure` must have run on `body`.
 */
export function headlineBlock(body: ElementNode, title: string): ElementNode | null {
  const t = slug(title);
  if (t === '') return null;
  const h1 = firstMatching(body, (el) => {
    if (el.tag !== 'h1') return false;
    const h = slug(textOf(el));
    return h !== '' && (h === t || t.startsWith(h + ' ') || h.startsWith(t + ' '));
  });
  if (h1 === null) return null;
  for (let el = h1.parent; el !== null && el !== body; el = el.parent) {
    if (el.textLen - h1.textLen >= HEADLINE_BLOCK_TEXT) return el;
  }
  return null;
}

/** Letters and digits, lower-cased, one space between runs. */
function slug(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}
