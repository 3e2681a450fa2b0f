/**
 * API-01 rules for markup that CMSs and site generators write (the pages in
 * test/extract-cms-themes.test.ts), each with look-alikes that must not trigger it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';
import { parsePage, type ElementNode } from '../src/services/web-to-markdown/dom.ts';
import { classWeight } from '../src/services/web-to-markdown/score.ts';

const md = (html: string) => extractMarkdown({ html, url: 'https://x.test/', includeLinks: false }).markdown;
const para = (s: string) => `<p>${s}: this paragraph carries enough prose, with commas, clauses and a full stop, to count as main text on any page.</p>`;
const paras = (s: string, n: number) => Array.from({ length: n }, (_, i) => para(`${s} ${i}`)).join('');
/** The first element of `html` with tag `tag`, as parsed. */
function first(html: string, tag: string): ElementNode {
  const find = (el: ElementNode): ElementNode | null => {
    for (const c of el.children) {
      if (typeof c === 'string') continue;
      if (c.tag === tag) return c;
      const f = find(c);
      if (f !== null) return f;
    }
    return null;
  };
  const el = find(parsePage(html, 'lenient').root);
  assert.ok(el !== null);
  return el;
}

describe('ids that spell their heading are anchors, not hints', () => {
  it('reads a generated heading id as an anchor', () => {
    for (const [id, text] of [['sharing-the-work', 'Sharing the work'], ['Related_species', 'Related species'], ['comments-from-the-first-year', 'Comments from the first year']]) {
      const h = first(`<h2 id="${id}">${text}<a href="#${id}">¶</a></h2>`, 'h2');
      assert.equal(h.anchorId, true, id);
      assert.equal(h.unlikely, false, id);
      assert.equal(classWeight(h), 0, id);
    }
  });

  it('reads a Sphinx section id as its heading\'s anchor', () => {
    const s = first('<section id="comment-lines-in-the-list">\n<h2>Comment lines in the list</h2><p>x</p></section>', 'section');
    assert.equal(s.anchorId, true);
    assert.equal(s.unlikely, false);
  });

  it('keeps an id that does not spell the heading, or is one word, as a hint', () => {
    const cases: [string, string][] = [
      ['<h3 id="comments">3 Responses to this post</h3>', 'h3'],
      ['<h2 id="comments">Comments</h2>', 'h2'],
      ['<div id="comments"><h3>Comments</h3><p>Nice post.</p></div>', 'div'],
      ['<div id="related-stories"><p>Intro</p><h3>Related stories</h3></div>', 'div'],
      ['<div id="share-tools"><a href="/x">Share on Facebook</a></div>', 'div'],
    ];
    for (const [html, tag] of cases) {
      const el = first(html, tag);
      assert.equal(el.anchorId, false, html);
      assert.ok(classWeight(el) < 0 || el.unlikely, html);
    }
  });

  it('keeps headings and sections with such ids in the Markdown', () => {
    const html = `<html><body><main><article>${paras('Intro', 2)}<h2 id="sharing-the-work">Sharing the work</h2>${paras('Middle', 2)}
      <section id="social-media-and-the-reveal"><h2>Social media and the reveal</h2>${paras('Late', 2)}</section></article></main></body></html>`;
    const out = md(html);
    assert.match(out, /## Sharing the work/);
    assert.match(out, /## Social media and the reveal/);
    assert.match(out, /Late 1: this paragraph/);
  });

  it('still drops a comments block whose id only names it', () => {
    const html = `<html><body><main><article>${paras('Story', 4)}</article><div id="comments"><h3>Comments</h3>${para('A reader wrote')}</div></main></body></html>`;
    assert.doesNotMatch(md(html), /A reader wrote/);
  });
});
