/**
 * API-01's fallback for pages whose first choice comes out small (core.ts `fallback`), CMS class
 * names that only contain a boilerplate word (class-hints.ts `withoutModifiers`), and layouts of many
 * content blocks (TYPO3 content elements, WordPress block themes, several <article>s).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';
import { parsePage, strictView } from '../src/services/web-to-markdown/dom.ts';
import { renderMarkdown } from '../src/services/web-to-markdown/render.ts';
import { classWeight, isStrongBoilerplate, withoutModifiers } from '../src/services/web-to-markdown/class-hints.ts';
import { bodyOf } from '../src/services/web-to-markdown/dom-queries.ts';
import { headlineBlock } from '../src/services/web-to-markdown/fallback-blocks.ts';
import { measure } from '../src/services/web-to-markdown/measure.ts';
import { selectContent } from '../src/services/web-to-markdown/score.ts';

const md = (html: string) => extractMarkdown({ html, url: 'https://x.test/', includeLinks: false }).markdown;
const para = (s: string) => `<p>${s}: this paragraph carries enough prose, with commas, clauses and a full stop, to count as main text on any page.</p>`;
const NAV = '<header><ul class="menu"><li><a href="/">Home</a></li><li><a href="/a">About</a></li></ul></header>';
const el = (cls: string) => parsePage(`<div class="${cls}">x</div>`, 'lenient').root.children[0] as Parameters<typeof classWeight>[0];

describe('class names of CMS naming schemes', () => {
  it('reads a BEM modifier as a variant, not as a hint', () => {
    assert.equal(withoutModifiers('field field--name-body field--label-hidden'), 'field field field');
    assert.equal(classWeight(el('field field--name-body field--label-hidden')), 0);
    assert.equal(classWeight(el('hidden')), -25);
    assert.equal(classWeight(el('sidebar')), -25);
    assert.equal(classWeight(el('x-widget')), -25);
    assert.equal(classWeight(el('x-widget'), true), 0, 'relaxed: weak negative hints count for nothing');
    for (const weak of ['elementor-widget-container', 'com-content-article', 'entry-meta', 'hidden', 'site-header']) assert.equal(classWeight(el(weak), true) >= 0, true, weak);
    for (const strong of ['comment-meta', 'author-bio', 'byline', 'sidebar', 'newsletter-box']) assert.equal(classWeight(el(strong), true), -25, `relaxed: ${strong} still counts`);
    assert.equal(classWeight(el('post-content'), true), 25, 'relaxed: positive hints still count');
  });

  it('reads an Elementor widget by its type, not by the word widget', () => {
    assert.equal(classWeight(el('elementor-widget-container')), 0);
    assert.equal(classWeight(el('elementor-element elementor-widget elementor-widget-theme-post-content')), 25);
    assert.equal(classWeight(el('elementor-element elementor-widget elementor-widget-share-buttons')), -25);
    assert.equal(classWeight(el('widget widget_recent_entries')), -25, 'a sidebar widget still reads as one');
  });

  it('names comment threads, related posts, author boxes and consent notices by a whole class name or id', () => {
    const node = (attrs: string) => parsePage(`<div ${attrs}>x</div>`, 'lenient').root.children[0] as Parameters<typeof isStrongBoilerplate>[0];
    for (const a of ['id="comments"', 'class="comments-area default-max-width"', 'class="comment-list"', 'id="respond" class="x"', 'class="jp-relatedposts"', 'class="related-posts"', 'class="author-bio show-avatars"', 'id="cookie-notice"', 'class="consent-banner"', 'class="gdpr"', 'class="c-author-box"', 'class="p-related"', 'class="o-creatorProfile"', 'class="writer-info"']) {
      assert.equal(isStrongBoilerplate(node(a)), true, a);
    }
    // A word of the post (its comment count, comments open, related tags), or a name with the word inside it.
    for (const a of ['class="post comments-open"', 'class="has-comments entry"', 'class="comment-count"', 'class="related-tags"', 'class="cookie-recipe"', 'class="post-author-name"', 'id="respondents"', 'class="unrelated"', 'class="p-related-tags"', 'class="creator-name"']) {
      assert.equal(isStrongBoilerplate(node(a)), false, a);
    }
  });

  it("keeps a Drupal body field whose class says its label is hidden", () => {
    const html = `<html><body>${NAV}<article class="node node--type-article node--view-mode-full"><h1>Title</h1>
      <div class="field field--name-body field--type-text-with-summary field--label-hidden field__item">${para('Drupal one')}${para('Drupal two')}</div>
      <div class="field field--name-field-tags field--label-above"><div class="field__label">Tags</div><a href="/t">t</a></div></article></body></html>`;
    const out = md(html);
    assert.match(out, /Drupal one/);
    assert.match(out, /Drupal two/);
  });
});

describe('fallback when the first choice is small', () => {
  // Every container of the article reads as boilerplate ("widget", "sidebar"-free but negative),
  // while a short positive-hinted block elsewhere wins the first choice.
  const article = Array.from({ length: 6 }, (_, i) => para(`Widget paragraph ${i}`)).join('');
  const html = `<html><body>${NAV}<div class="post-meta content">Posted on Monday, by the editors of the site.</div>
    <div class="page-widget widget-area"><div class="widget-wrap"><div class="widget-container">${article}</div></div></div></body></html>`;

  it('finds the article inside containers whose class names read as boilerplate', () => {
    const out = md(html);
    for (let i = 0; i < 6; i++) assert.match(out, new RegExp(`Widget paragraph ${i}`));
  });

  it('takes the body paragraphs minus link lists when the article is scattered', () => {
    // Paragraphs in separate table cells between link lists: no one container holds the article.
    const cell = (s: string) => `<table><tr><td><ul><li><a href="/1">Link list</a></li><li><a href="/2">Link list</a></li></ul></td></tr><tr><td><div>${para(s)}</div></td></tr></table>`;
    const out = md(`<html><body>${NAV}${['Loose one', 'Loose two', 'Loose three'].map(cell).join('')}</body></html>`);
    for (const n of ['one', 'two', 'three']) assert.match(out, new RegExp(`Loose ${n}`));
  });

  it('keeps a correct short article instead of a longer block of comments', () => {
    const short = `<p>A short notice: the office is closed on Friday, and opens again on Monday at nine.</p><p>Thank you for your patience.</p>`;
    const comments = Array.from({ length: 8 }, (_, i) => `<div class="comment"><p>Comment ${i}: I really liked this notice, thanks for telling us about the closing, see you on Monday.</p></div>`).join('');
    const out = md(`<html><body>${NAV}<article class="post">${short}</article><section class="comments">${comments}</section></body></html>`);
    assert.match(out, /office is closed/);
    assert.doesNotMatch(out, /Comment 3/);
  });

  it('keeps a one-sentence brief without its comment thread, related posts or author box, in any step', () => {
    const brief = '<p>The ferry keeps its winter timetable until the end of May, the harbour office said on Tuesday.</p>';
    const related = '<div class="jp-relatedposts"><div class="jp-relatedposts-post"><h4>Harbour wall repairs</h4><p>The council has agreed a plan for the old harbour wall, and work starts after the spring tides.</p></div></div>';
    const thread = '<div id="comments"><ol><li><p>We tried something similar in our street last year and the part about the timetable rings true.</p></li></ol></div>';
    const bio = '<div class="author-bio"><p>Dee covers transport and the harbour for the paper, and takes the early ferry most weekdays.</p></div>';
    const out = md(`<html><body>${NAV}<main><h1>Ferry keeps its winter timetable</h1><article class="post"><div class="entry-content">${brief}${related}</div>${bio}</article>${thread}</main></body></html>`);
    assert.match(out, /winter timetable until the end of May/);
    assert.doesNotMatch(out, /harbour wall|street last year|early ferry/);
  });

  it('keeps a block whose class only mentions comments or related items', () => {
    const out = md(`<html><body>${NAV}<article class="post comments-open"><div class="related-tags">${para('Tagged one')}${para('Tagged two')}</div></article></body></html>`);
    assert.match(out, /Tagged one/);
    assert.match(out, /Tagged two/);
  });

  it('finds the block under the headline: the <h1> of the title, up to the first ancestor with text beside it', () => {
    const block = (html: string, title: string) => {
      const body = bodyOf(parsePage(html, 'lenient').root);
      measure(body);
      const b = headlineBlock(body, title);
      return b === null ? null : (b.attrs.id ?? b.tag);
    };
    const text = 'Hand-spun from the fleece of one flock, washed but never dyed, so each skein keeps its natural colour.';
    const page = `<html><body><h1 id="logo">Hill Yarns</h1><div id="wrap"><section id="info"><div id="t"><h1>Undyed hill yarn</h1></div><p>${text}</p></section></div></body></html>`;
    assert.equal(block(page, 'Undyed hill yarn'), 'info');
    assert.equal(block(page, 'Undyed hill yarn, 100 g'), 'info', 'a heading that begins the title');
    assert.equal(block(page, 'Undyed hill'), 'info', 'a title that begins the heading');
    assert.equal(block(page, 'Undyed wool'), null, 'words in common are not enough');
    assert.equal(block(page, 'Hill Yarns'), null, 'the logo <h1>: only the body holds text beside it');
    assert.equal(block(page, 'A page about something else'), null);
    assert.equal(block(`<html><body><section id="s"><h1>Undyed hill yarn</h1><p>Short.</p></section><p>${text}</p></body></html>`, 'Undyed hill yarn'), null, 'too little text beside it below the body');
  });

  it('keeps the title and price of a product whose short description loses the first choice to a content-classed box', () => {
    const html = `<html><head><title>Undyed hill yarn – Hill Yarns</title></head><body>${NAV}<main><section class="product-info"><p class="vendor">Hill Yarns</p><h1>Undyed hill yarn</h1><div class="price">£12.00 GBP</div>
      <div class="description"><p>Hand-spun from the fleece of one flock, washed but never dyed, so each skein keeps its natural colour.</p></div>
      <details><summary>Care</summary><div class="accordion-content"><p>Hand wash cold and dry flat.</p></div></details></section>
      <div class="newsletter-signup"><p>Join our mailing list for new colours, patterns and the odd discount code every month.</p></div></main></body></html>`;
    const out = md(html);
    for (const t of [/# Undyed hill yarn/, /£12\.00 GBP/, /washed but never dyed/, /Hand wash cold/]) assert.match(out, t);
    assert.doesNotMatch(out, /mailing list/);
  });

  it('takes the article a script would reveal or that shows without scripts, when next to nothing is visible', () => {
    const article = Array.from({ length: 6 }, (_, i) => para(`Revealed ${i}`)).join('');
    for (const [name, wrap] of [
      ['display: none', (a: string) => `<div id="app-shell"><p>Loading…</p></div><div id="story" style="display:none">${a}</div>`],
      ['aria-hidden', (a: string) => `<div aria-hidden="true" class="page">${a}</div>`],
      ['hidden attribute', (a: string) => `<div hidden>${a}</div>`],
      ['<noscript>', (a: string) => `<div id="root"></div><noscript>${a}</noscript>`],
    ] as const) {
      const out = md(`<html><body>${NAV}${wrap(`<h1>A revealed story</h1>${article}`)}</body></html>`);
      for (let i = 0; i < 6; i++) assert.match(out, new RegExp(`Revealed ${i}`), name);
    }
  });

  it('leaves hidden text out when the page shows its article, and a hidden pop-up out of a short page', () => {
    const hidden = Array.from({ length: 4 }, (_, i) => para(`Hidden ${i}`)).join('');
    const visible = Array.from({ length: 4 }, (_, i) => para(`Visible ${i}`)).join('');
    const out = md(`<html><body>${NAV}<article>${visible}</article><div style="display:none">${hidden}</div><noscript>${hidden}</noscript></body></html>`);
    assert.match(out, /Visible 3/);
    assert.doesNotMatch(out, /Hidden/);
    const popup = `<div class="newsletter-modal" style="display:none">${hidden}</div>`;
    const short = md(`<html><body>${NAV}<main><h1>Closed today</h1><p>The shop is closed today for stocktaking.</p></main>${popup}</body></html>`);
    assert.match(short, /closed today for stocktaking/);
    assert.doesNotMatch(short, /Hidden/);
  });

  it("keeps an accordion's panels (hidden until their toggle opens them), not other hidden blocks or a hidden menu", () => {
    const qa = ['How long does delivery take', 'Can I return an item', 'Do you ship abroad'].map((q, i) => `<h3><button aria-expanded="false" aria-controls="a${i}">${q}?</button></h3><div id="a${i}" hidden>${para(`Answer ${i}`)}</div>`).join('');
    const menu = '<button aria-expanded="false" aria-controls="m">Menu</button><ul id="m" class="mobile-menu" hidden><li><a href="/">Home page</a></li><li><a href="/about">About the shop</a></li></ul>';
    const out = md(`<html><body>${NAV}${menu}<main><h1>Questions</h1>${qa}</main><div hidden>${para('Unrelated hidden')}</div></body></html>`);
    for (let i = 0; i < 3; i++) assert.match(out, new RegExp(`Answer ${i}: this paragraph`));
    assert.doesNotMatch(out, /Unrelated hidden|About the shop/);
  });

  it('renders a declarative shadow root where it stands, and no other <template>', () => {
    const body = Array.from({ length: 4 }, (_, i) => para(`Shadow ${i}`)).join('');
    for (const attr of ['shadowrootmode="open"', 'shadowrootmode="closed"', 'shadowroot="open"']) {
      const out = md(`<html><body>${NAV}<story-view><template ${attr}><h1>Shadow story</h1>${body}</template></story-view></body></html>`);
      for (let i = 0; i < 4; i++) assert.match(out, new RegExp(`Shadow ${i}`), attr);
    }
    const inert = md(`<html><body>${NAV}<main>${para('Shown')}${para('Shown too')}</main><template id="row">${para('Inert row')}</template></body></html>`);
    assert.match(inert, /Shown too/);
    assert.doesNotMatch(inert, /Inert row/);
  });

  it("renders a component's slot content (Wiki.js: <template slot>); reads any <template> only when the page shows next to nothing", () => {
    const body = Array.from({ length: 4 }, (_, i) => para(`Slot ${i}`)).join('');
    const footer = `<footer>${para('Footer note of the wiki')}${para('Another footer note')}</footer>`;
    const wiki = md(`<html><body>${NAV}<div id="root"><page locale="en"><template slot="contents"><div><h1>Laser cutter</h1>${body}</div></template><template slot="comments"><div></div></template></page></div>${footer}</body></html>`);
    for (let i = 0; i < 4; i++) assert.match(wiki, new RegExp(`Slot ${i}`));
    assert.doesNotMatch(wiki, /Footer note/);
    const long = Array.from({ length: 6 }, (_, i) => para(`Template ${i}`)).join('');
    const shell = md(`<html><body>${NAV}<div id="app"></div><template id="article">${long}</template></body></html>`);
    for (let i = 0; i < 6; i++) assert.match(shell, new RegExp(`Template ${i}`));
  });

  it("reads a script-rendered page's article from its JSON-LD articleBody, only when the page shows next to nothing", () => {
    const text = ['Dredging of the harbour begins in March', 'The council approved the plan by seven votes to two', 'Residents asked for quiet hours at night'].map((s) => `${s}, which this paragraph tells at the length of real prose, with commas & clauses, so it counts as main text.`);
    const ld = (article: object) => `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebSite', name: 'Port News' }, { '@type': 'NewsArticle', headline: 'Harbour', ...article }] })}</script>`;
    const shell = (head: string, main = '<div id="__next"><div class="skeleton"></div></div>') => md(`<html><head><title>Harbour</title>${head}</head><body>${NAV}${main}<footer>© Port News</footer></body></html>`);
    const plain = shell(ld({ articleBody: text.join('\n\n') }));
    for (const s of text) assert.ok(plain.includes(s), s);
    assert.equal(plain.split('\n\n').length, 3, 'one paragraph per block');
    const markup = shell(ld({ articleBody: text.map((s) => `<p>${s.replace('March', '<b>March</b>')}</p>`).join('') }));
    assert.match(markup, /begins in \*\*March\*\*/);
    const lines = shell(ld({ articleBody: text.join('\n') }));
    assert.equal(lines.split('\n\n').length, 3, 'one paragraph per line when there is no blank line');
    // A page that shows its article keeps it; a short or broken articleBody changes nothing.
    const shown = shell(ld({ articleBody: 'A different summary written for search engines only.'.repeat(12) }), `<main>${para('Shown')}${para('Shown too')}${para('Shown three')}</main>`);
    assert.match(shown, /Shown too/);
    assert.doesNotMatch(shown, /search engines only/);
    assert.doesNotMatch(shell(ld({ articleBody: 'Too short.' })), /Too short/);
    assert.doesNotMatch(shell('<script type="application/ld+json">{"articleBody": broken</script>'), /broken/);
  });

  it('never returns an empty string for a page with visible text', () => {
    assert.notEqual(md('<html><body><nav><a href="/">Only a nav</a></nav></body></html>').trim(), '');
    assert.equal(md('<html><body><script>x()</script></body></html>'), '');
  });
});

describe('layouts of many content blocks', () => {
  it('keeps every TYPO3 content element of the main column', () => {
    const frames = ['Intro', 'History', 'Services', 'Contact'].map((n, i) => `<div id="c${100 + i}" class="frame frame-default frame-type-textmedia"><header><h2>${n}</h2></header><div class="ce-textpic"><div class="ce-bodytext">${para(n)}</div></div></div>`).join('');
    const out = md(`<html><body>${NAV}<main id="content">${frames}</main><footer>© Firm</footer></body></html>`);
    for (const n of ['Intro', 'History', 'Services', 'Contact']) assert.match(out, new RegExp(`${n}: this paragraph`));
    assert.doesNotMatch(out, /© Firm/);
  });

  it('keeps every <article> block of a WordPress block-theme page and drops the link column', () => {
    const blocks = ['First', 'Second', 'Third'].map((n) => `<article class="wp-block-group"><h2>${n}</h2>${para(n)}</article>`).join('');
    const out = md(`<html><body>${NAV}<div class="wp-site-blocks"><div class="entry-content wp-block-post-content">${blocks}</div><div class="wp-block-group"><a href="/x">Link one</a> <a href="/y">Link two</a></div></div></body></html>`);
    for (const n of ['First', 'Second', 'Third']) assert.match(out, new RegExp(`${n}: this paragraph`));
    assert.doesNotMatch(out, /Link one/);
  });
});

describe('teaser cards beside the article', () => {
  // Cards of other stories, each an <article> with a linked headline and a line of summary, no
  // class or heading that names them: the story is the text, the cards are not.
  const cards = (n: number) => Array.from({ length: n }, (_, i) => `<article class="card"><h3><a href="/s${i}">Another story number ${i} about the city budget</a></h3><p>Card summary ${i} about the budget that runs for a line or two, with a comma, and ends here.</p></article>`).join('');
  const story = ['One', 'Two', 'Three', 'Four'].map((s) => `<p>Story ${s}: the council met to discuss the plan for the new bridge, and residents asked many detailed questions about costs, traffic and the works.</p>`).join('');

  it('leaves out cards after the article inside the one <main>', () => {
    const out = md(`<html><body>${NAV}<main><article><h1>The story</h1>${story}</article>${cards(10)}</main></body></html>`);
    assert.match(out, /Story Four/);
    assert.doesNotMatch(out, /Card summary|Another story/);
  });

  it('leaves out cards beside a story told in sections', () => {
    const sections = ['One', 'Two', 'Three'].map((s) => `<section><h2>Part ${s}</h2>${para(`Part ${s} first`)}${para(`Part ${s} second`)}</section>`).join('');
    const out = md(`<html><body>${NAV}<div><h1>The story</h1>${sections}</div>${cards(5)}</body></html>`);
    for (const s of ['One', 'Two', 'Three']) assert.match(out, new RegExp(`Part ${s} second`));
    assert.doesNotMatch(out, /Card summary|Another story/);
  });

  it('leaves out a list of cards below the article in its own container, and keeps a listicle of linked items', () => {
    const items = (n: number) => `<ul>${Array.from({ length: n }, (_, i) => `<li><h3><a href="/s${i}">Another story number ${i} about the city budget</a></h3><p>Card summary ${i} about the budget that runs for a line or two, with a comma, and ends here.</p></li>`).join('')}</ul>`;
    for (const list of [items(6), `<div>${items(6)}</div>`]) {
      const out = md(`<html><body>${NAV}<div><h1>The story</h1>${story}${list}</div></body></html>`);
      assert.match(out, /Story Four/);
      assert.doesNotMatch(out, /Card summary|Another story/);
    }
    const tools = ['Alpha', 'Beta', 'Gamma', 'Delta'].map((t) => `<li><h3><a href="/${t}">${t} editor</a></h3><p>${t} editor: a small program with a long list of features, plugins for every language, a quick start and a manual, and it costs nothing.</p><p>${t} runs on every system, and its plugins are written by a large community of users who answer questions.</p></li>`).join('');
    const listicle = md(`<html><body>${NAV}<div><h1>Four editors</h1>${para('We tried many editors')}${para('Here are the four we liked')}<ol>${tools}</ol></div></body></html>`);
    for (const t of ['Alpha', 'Beta', 'Gamma', 'Delta']) assert.match(listicle, new RegExp(`${t} runs on every system`));
  });

  it('keeps a page whose content is the cards (a list of press releases)', () => {
    const releases = Array.from({ length: 5 }, (_, i) => `<article class="release"><h2><a href="/pr${i}">Release headline ${i}</a></h2>${para(`Release ${i}`)}</article>`).join('');
    const out = md(`<html><body>${NAV}<main><h1>Press releases</h1>${releases}</main></body></html>`);
    for (let i = 0; i < 5; i++) assert.match(out, new RegExp(`Release ${i}: this paragraph`));
    const list = `<ul>${Array.from({ length: 5 }, (_, i) => `<li><h2><a href="/pr${i}">Release headline ${i}</a></h2><p>Release ${i} in a line, with a comma, and a date.</p></li>`).join('')}</ul>`;
    const listed = md(`<html><body>${NAV}<main><h1>Press releases</h1>${para('Our news for the press')}${list}</main></body></html>`);
    for (let i = 0; i < 5; i++) assert.match(listed, new RegExp(`Release ${i} in a line`));
  });
});

describe('a list of links the text announces', () => {
  const roles = '<ul><li><a href="/j/1">Backend engineer (Berlin)</a></li><li><a href="/j/2">Product designer (Lisbon)</a></li><li><a href="/j/3">Support lead (remote)</a></li></ul>';
  const intro = (end: string) => `<html><body>${NAV}<main><h1>Careers</h1>${para('We are a small team')}<p>${end}</p>${roles}</main></body></html>`;

  it('keeps the links after a sentence ending in a colon', () => {
    const out = md(intro('We are hiring for these open roles right now:'));
    for (const r of ['Backend engineer', 'Product designer', 'Support lead']) assert.match(out, new RegExp(r));
  });

  it('drops them after a short label or a sentence that announces nothing', () => {
    for (const end of ['Read more:', 'We answer every application within two weeks.']) assert.doesNotMatch(md(intro(end)), /Backend engineer/, end);
  });
});

describe('the article container with a list of related links', () => {
  it('the first choice keeps a body without class names whose related links are over a fifth of its text (the choice climbed past it)', () => {
    const line = (s: string) => `<p>${s}: the band will tour again next summer and the singer joins them on stage for the first time in years.</p>`;
    const body = ['Alpha', 'Beta', 'Gamma', 'Delta'].map(line).join('');
    const heads = ['First', 'Second', 'Third', 'Fourth', 'Fifth', 'Sixth'].map((n) => `${n} related headline about the band and its long tour`);
    const related = '<p>You may also like...</p>' + heads.map((t, i) => `<p><a href="/r${i}">${t}</a></p>`).join('');
    const page = `<html><body>${NAV}<main><article><h1>The band reunites</h1><div><div>${body}${related}</div></div><button>View Comments</button></article></main></body></html>`;
    // Without the fallback, which used to find the body again on this page but not on every page.
    const first = renderMarkdown(selectContent(strictView(parsePage(page, 'lenient')).root), { base: null, includeLinks: false, clean: true });
    for (const s of ['Alpha', 'Beta', 'Gamma', 'Delta']) assert.match(first, new RegExp(`${s}: the band will tour`));
    assert.doesNotMatch(first, /related headline/);
    assert.match(md(page), /Delta: the band will tour/);
  });
});

describe('the main content the page marks', () => {
  const summary = (n: number) => `<li><h5><a href="/s${n}">Teaser headline number ${n}</a></h5><span>Wednesday November 20</span><p>Summary ${n}, which runs on for a while, with clauses, commas, asides, and more clauses, as the summaries of a teaser list do.</p></li>`;
  const teasers = `<div><h4>More from the site</h4><ul>${[1, 2, 3, 4, 5, 6, 7, 8].map(summary).join('')}</ul></div>`;
  const article = `<article><h1>The article</h1><div><div><div><div>${['One', 'Two', 'Three', 'Four', 'Five', 'Six'].map((s) => para(s)).join('')}</div></div></div></div></article>`;
  it('a candidate in the one <main> wins over a stronger teaser list outside it', () => {
    const out = md(`<html><body>${NAV}<main>${article}</main>${teasers}</body></html>`);
    assert.match(out, /Three: this paragraph/);
    assert.doesNotMatch(out, /Summary 3/);
  });
  it('so does one in the one <article> of a page without <main>', () => {
    const out = md(`<html><body>${NAV}<div>${article}</div>${teasers}</body></html>`);
    assert.match(out, /Three: this paragraph/);
    assert.doesNotMatch(out, /Summary 3/);
  });
  it('two <article>s mark nothing: the scores decide', () => {
    const out = md(`<html><body>${NAV}<div>${article}</div>${teasers.replace('<div>', '<article>').replace(/<\/div>$/, '</article>')}</body></html>`);
    assert.match(out, /Summary 3/);
  });
});

describe('captions', () => {
  it('a long caption beside its image gives no points: a short article of few commas beside it wins', () => {
    const caption = '<div><img src="/p.jpg" alt=""><p>In this Dec. 12, 2006, file photo, made available by NASA, astronaut Robert L. Curbeam Jr., left, and European Space Agency astronaut Christer Fuglesang, participate in a space walk during construction of the International Space Station, which was finished, after years of work, in 2011. (NASA via AP, File)</p></div>';
    const line = (s: string) => `<p>${s} the study says long trips to Mars may one day be made by crews who sleep for most of the way there.</p>`;
    const body = `<div><div>${line('First')}${line('Then')}</div><div><a href="/s">Share</a> <a href="/t">Tweet</a> <a href="/m">Mail</a> <a href="/p">Print</a></div>${line('Last')}${line('Also')}</div>`;
    const out = md(`<html><body>${NAV}<div><section><div><h1>Snooze cruise</h1>${caption}<div>${body}</div></div></section></div></body></html>`);
    assert.match(out, /First the study says/);
    assert.match(out, /Also the study says/);
  });
});
