/**
 * API-01 rules for markup that CMSs and site generators write (the pages in
 * test/extract-cms-themes.test.ts), each with look-alikes that must not trigger it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';
import { parsePage, strictView, type ElementNode } from '../src/services/web-to-markdown/dom.ts';
import { renderMarkdown } from '../src/services/web-to-markdown/render.ts';
import { classWeight } from '../src/services/web-to-markdown/class-hints.ts';
import { selectContent } from '../src/services/web-to-markdown/score.ts';

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

  it('reads a one-word id on the heading it spells as an anchor (a generator\'s slug), and a page-prefixed one (Confluence)', () => {
    for (const [html, tag] of [['<h2 id="comments">Comments</h2>', 'h2'], ['<h2 id="Oncallchecklist-Escalationcontacts">Escalation contacts</h2>', 'h2']] as const) {
      assert.equal(first(html, tag).anchorId, true, html);
    }
  });

  it('keeps an id that does not spell the heading, or is one word on a wrapper, as a hint', () => {
    const cases: [string, string][] = [
      ['<h3 id="comments">3 Responses to this post</h3>', 'h3'],
      ['<h2 id="comments-title">Comments</h2>', 'h2'],
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

describe('headings in CMS markup', () => {
  const page = (inner: string) => `<html><body><main><article>${inner}</article></main></body></html>`;

  it('reads `header` and `nav` in a heading\'s class as what it is, not as boilerplate', () => {
    const h = (cls: string) => first(`<h2 class="${cls}">Title</h2>`, 'h2');
    assert.equal(classWeight(h('element-header')), 0);
    assert.equal(classWeight(h('anchor anchorWithStickyNavbar_LWe7')), 0);
    assert.equal(classWeight(h('widget-title')), -25, 'other hints still count on headings');
    assert.equal(classWeight(h('comments-title')), -25);
    assert.equal(classWeight(first('<div class="site-header">x</div>', 'div')), -25, 'and `header` still counts on other blocks');
  });

  it('keeps a TYPO3 content element header and the Docusaurus heading', () => {
    const out = md(page(`${paras('Lead', 2)}<header class="frame-header"><h2 class="element-header "><span>Scaffolding and weather</span></h2></header>${paras('Body', 2)}
      <h2 class="anchor anchorWithStickyNavbar_LWe7" id="booking-rules">Booking rules<a href="#booking-rules" class="hash-link" aria-label="Direct link to Booking rules">\u200b</a></h2>${paras('Rules', 2)}`));
    assert.match(out, /^## Scaffolding and weather$/m);
    assert.match(out, /^## Booking rules$/m);
  });

  it('drops a header-classed label whose box came out empty', () => {
    const box = `<div class="section-header"><h2>Most read</h2></div><ul class="most-read"><li><a href="/1">One headline here</a></li><li><a href="/2">Another headline here</a></li></ul>`;
    const out = md(page(`${paras('Body', 3)}${box}`));
    assert.match(out, /Body 2/);
    assert.doesNotMatch(out, /Most read/);
  });

  it('renders a MediaWiki heading without its [edit] link', () => {
    const heading = (id: string, text: string) =>
      `<div class="mw-heading mw-heading2"><h2 id="${id}">${text}</h2><span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/w/index.php?action=edit&amp;section=1"><span>edit</span></a><span class="mw-editsection-bracket">]</span></span></div>`;
    const out = md(page(`${paras('Lead', 2)}${heading('Plot', 'Plot')}${paras('Plot text', 2)}${heading('Restoration', 'Restoration')}${paras('Late', 2)}`));
    assert.match(out, /^## Plot$/m);
    assert.match(out, /^## Restoration$/m);
    assert.doesNotMatch(out, /edit/);
  });

  it('does not read a heading over a list of links, a linked heading or a teaser box as a heading block', () => {
    const cases = [
      '<div class="trending"><h3>Trending</h3><a href="/1">First headline of the day</a> <a href="/2">Second headline of the day</a></div>',
      '<div class="teaser"><h3><a href="/story">A linked teaser title</a></h3></div>',
      '<div class="title-bar"><h2>More in Amsterdam</h2><a href="/ams"><img src="https://x.test/a.jpg" alt=""><span>Amsterdam</span></a></div>',
      '<header class="entry__header"><h1>Story title</h1><ul class="entry__categories"><li><a href="/c">Category</a></li></ul></header>',
    ];
    for (const c of cases) {
      const out = md(page(`${paras('Body', 3)}${c}`));
      assert.doesNotMatch(out, /Trending|linked teaser|More in Amsterdam|Story title/, c);
    }
  });

  it('drops permalink signs from headings and keeps other in-page links', () => {
    const out = md(page(`<h2 id="setup-steps">Setup steps<a class="headerlink" href="#setup-steps" title="Permalink">¶</a></h2>${paras('Body', 3)}<p>See note <a href="#fn1">1</a> and the section on <a href="#setup-steps">setup steps</a> above, which covers it.</p>`));
    assert.match(out, /^## Setup steps$/m);
    assert.match(out, /See note 1 and the section on setup steps above/);
    assert.doesNotMatch(out, /¶/);
  });
});

describe('layout wrappers between the article and the choice', () => {
  /** Drupal Olivero: <main> > div.sidebar-grid > (content region, aside.region--sidebar); the page title's block makes <main> a strong candidate. */
  const olivero = (n: number) => `<html><body><div id="page-wrapper" class="page-wrapper"><div id="page"><div id="main-wrapper" class="layout-main-wrapper layout-container"><div id="main" class="layout-main"><main id="content" class="main-content" role="main"><div class="region region--hero"><div class="block block-page-title-block"><h1 class="title page-title"><span class="field field--name-title field--label-hidden">Counting trees in the old orchard</span></h1></div></div>
      <div class="main-content__container container"><div class="sidebar-grid grid-full">
      <div class="region region--content"><div class="block block-system block-system-main-block"><div class="block__content"><article class="node node--type-article node--view-mode-full"><div class="node__content"><div class="text-content clearfix field field--name-body field--label-hidden field__item">${paras('Orchard', n)}</div></div>
      <div id="comments"><section class="comments field field--name-comment"><article class="comment js-comment" role="article"><div class="comment__content">${para('Reader comment')}</div></article></section></div></article></div></div></div>
      <aside class="region region--sidebar"><h2>Recent content</h2><p>Hedge laying on the north lane</p></aside></div></div></main></div></div></div></div></body></html>`;

  for (const n of [5, 3]) {
    it(`keeps an article of ${n} paragraphs inside a wrapper named for its sidebar, and leaves the sidebar and comments out`, () => {
      const out = md(olivero(n));
      for (let i = 0; i < n; i++) assert.match(out, new RegExp(`Orchard ${i}:`));
      assert.doesNotMatch(out, /Reader comment|Hedge laying/);
    });
  }

  it('keeps the article inside a wrapper whose class says nav (Read the Docs): the choice stops at the role=main it climbs to', () => {
    const html = `<html><body><div class="wy-grid-for-nav"><nav class="wy-nav-side"><a href="/">Home</a></nav><section class="wy-nav-content-wrap"><div class="wy-nav-content"><div class="rst-content">
      <div role="main" class="document"><div itemprop="articleBody"><section id="intro"><h1>Intro</h1>${paras('Docs', 3)}</section></div></div></div></div></section></div></body></html>`;
    // The first attempt itself (core.ts falls back to others when it comes out short).
    const chosen = selectContent(strictView(parsePage(html, 'lenient')).root);
    assert.equal(chosen[0]!.attrs.class, 'document');
    const out = renderMarkdown(chosen, { base: null, includeLinks: false, clean: true });
    for (let i = 0; i < 3; i++) assert.match(out, new RegExp(`Docs ${i}:`));
  });

  it('still drops a sidebar beside the article that holds prose', () => {
    const html = `<html><body><div class="layout"><div class="content-column"><article>${paras('Story', 4)}</article></div>
      <div class="sidebar-column widget-area"><div class="widget text-widget">${para('About this site')}</div></div></div></body></html>`;
    assert.doesNotMatch(md(html), /About this site/);
  });
});

describe('content elements of one component', () => {
  const frame = (uid: number, type: string, inner: string) =>
    `<div id="c${uid}" class="frame frame-default frame-type-${type} frame-layout-default"><div class="frame-group-container"><div class="frame-group-inner"><div class="frame-container"><div class="frame-inner">${inner}</div></div></div></div></div>`;

  it('keeps a TYPO3 text-and-media element between text elements', () => {
    const media = `<div class="textmedia textmedia-beside"><div class="textmedia-item textmedia-gallery"></div><div class="textmedia-item textmedia-text">${paras('Media text', 2)}</div></div>`;
    const out = md(`<html><body><div id="page-content" class="main-section"><div class="section section-default">${frame(1, 'text', paras('First', 2))}${frame(2, 'textmedia', media)}${frame(3, 'text', paras('Last', 2))}</div></div></body></html>`);
    for (const n of ['First 1', 'Media text 0', 'Media text 1', 'Last 1']) assert.match(out, new RegExp(`${n}:`));
  });

  it('does not join grid cells or link lists that only share a first class name', () => {
    const prose = paras('Claim', 2);
    const cells = `<div class="row"><div class="col-xs-12"><div><div><div><div>${prose}</div></div></div></div></div><div class="col-xs-12 col-md-8 content-offset">${paras('Story', 5)}</div></div>`;
    assert.doesNotMatch(md(`<html><body>${cells}</body></html>`), /Claim 0/);
    const links = Array.from({ length: 6 }, (_, i) => `<li><a href="/${i}">A related headline number ${i} about something</a></li>`).join('');
    const blocks = `${frame(1, 'text', paras('Body', 4))}${frame(2, 'menu_pages', `<div><div><div><div><ul>${links}</ul></div></div></div></div>`)}`;
    assert.doesNotMatch(md(`<html><body><main>${blocks}</main></body></html>`), /related headline/);
  });
});

describe('`hidden` inside a compound class', () => {
  const el = (cls: string) => first(`<div class="${cls}">x</div>`, 'div');

  it('reads `hidden` as a hint only as a class of its own', () => {
    for (const cls of ['product__description rte quick-add-hidden', 'no-js-hidden', 'price mobile-hidden']) assert.equal(classWeight(el(cls)), 0, cls);
    for (const cls of ['hidden', 'is-hidden', 'panel hidden', 'hidden extra']) assert.equal(classWeight(el(cls)), -25, cls);
  });

  it('keeps a Shopify product description and its accordion', () => {
    const html = `<html><body><main id="MainContent" class="content-for-layout focus-none" role="main"><section class="shopify-section section"><div class="product product--large grid">
      <div class="product__info-wrapper grid__item"><section id="ProductInfo" class="product__info-container product__column-sticky"><div class="product__title"><h1>Undyed hill yarn</h1></div>
      <div class="product__description rte quick-add-hidden">${paras('Description', 3)}</div>
      <div class="product__accordion accordion quick-add-hidden"><details><summary><div class="summary__title"><h2 class="h4 accordion__title">Care instructions</h2></div></summary><div class="accordion__content rte"><p>Hand wash cold and dry flat, away from direct heat.</p></div></details></div>
      </section></div></div></section></main></body></html>`;
    const out = md(html);
    assert.match(out, /Description 2:/);
    assert.match(out, /Hand wash cold and dry flat/);
  });
});
