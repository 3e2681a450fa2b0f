/**
 * API-01 on markup whose names mislead a class/id reading: a section label that says "Comment"
 * over an opinion piece, layout wrappers named for what sits beside the article, class names that
 * hold a boilerplate word inside another word, in-page toggles that are links only in form.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';
import { norm } from './helpers/extract-pages.ts';

const para = (i: number, topic = 'the high street') =>
  `<p>Paragraph ${i + 1} says what happened to ${topic}, who decided it, and how the neighbours, the shop owners and the council each answered the plan in turn.</p>`;
const body = (n: number, topic?: string) => Array.from({ length: n }, (_, i) => para(i, topic)).join('');
const extract = (html: string) => norm(extractMarkdown({ html, url: 'https://x.test/a', includeLinks: false }).markdown);
/** A band beside the article long enough to be taken for it (500+ characters) when the article is lost. */
const PROMO = `<section class="promo-band"><h2>Support local journalism</h2><p>Our reporters cover council meetings, courts and schools across the region every day, and we rely on readers like you to keep doing it. Subscriptions start at just two pounds a month and you can cancel at any time, with no questions asked.</p><p>Subscribers also get our morning briefing, ad-free reading and access to the full digital archive going back to 1998, including every edition of the printed paper as it appeared on the day it was printed.</p><p>Gift subscriptions are available too, for a month, a quarter or a whole year, and make a thoughtful present for anyone who has moved away from the region but still wants its news.</p></section>`;
const page = (inner: string) => `<!doctype html><html lang="en"><head><title>Upper floors</title></head><body><header><nav><a href="/">Home</a> <a href="/news">News</a></nav></header>${inner}${PROMO}<footer><p>© 2025 The Courier. All rights reserved.</p></footer></body></html>`;

describe('a section label over the article is no comment thread', () => {
  for (const [label, lang] of [['Comment', 'en'], ['Kommentar', 'de']] as const) {
    it(`"${label}" as the kicker of an opinion piece keeps the article (${lang})`, () => {
      const md = extract(page(`<main><article><h3 class="article__section-label">${label}</h3><h1>Empty upper floors are wasted space</h1><p class="standfirst">Converting them would do more than parking.</p><div class="article__body">${body(6)}</div></article></main>`));
      assert.ok(md.includes('paragraph 6 says'), md);
    });
  }

  it('a heading "Comments" or "1 Kommentar" still takes the thread after it', () => {
    for (const heading of ['Comments', '1 Kommentar']) {
      const md = extract(page(`<main><article><h1>Upper floors</h1>${body(5)}<h2>${heading}</h2><p>I fully agree with this, the town centre has been empty for years and nobody seems to care at all.</p><p>Nonsense, the parking is the real problem and everybody who lives here knows it very well.</p></article></main>`));
      assert.ok(md.includes('paragraph 5 says'), md);
      assert.ok(!md.includes('fully agree'), md);
    }
  });
});

describe('a wrapper named for what sits beside the article', () => {
  for (const cls of ['wrap has-sidebar', 'container right-sidebar', 'container with-ads', 'page-wrap menu-closed', 'wrap has-share-bar']) {
    it(`keeps the <main> inside <div class="${cls}">`, () => {
      const md = extract(page(`<div id="content" class="site-content"><div class="${cls}"><main><article><h1>Upper floors</h1>${body(5)}</article></main></div></div>`));
      assert.ok(md.includes('paragraph 5 says'), md);
      assert.ok(!md.includes('support local journalism'), md);
    });
  }

  it('keeps the one <article> of a page without <main>', () => {
    const md = extract(page(`<div class="container no-sidebar"><article><h1>Upper floors</h1>${body(5)}</article></div>`));
    assert.ok(md.includes('paragraph 5 says'), md);
  });

  it('still leaves out a sidebar beside the article', () => {
    const md = extract(page(`<div class="wrap has-sidebar"><main><article><h1>Upper floors</h1>${body(5)}</article></main><div class="sidebar"><p>Our sidebar lists the ten most read stories of the week and the weather for the coming days.</p></div></div>`));
    assert.ok(md.includes('paragraph 5 says') && !md.includes('weather for the coming'), md);
  });
});

describe('a boilerplate word inside a longer word', () => {
  for (const [cls, topic] of [['shareholder-letter', 'the shareholders'], ['book-extract', 'the chapter'], ['subscriber-only', 'the paywalled story'], ['commentary-body', 'the commentary']] as const) {
    it(`keeps <div class="${cls}">`, () => {
      const md = extract(page(`<main><h1>Upper floors</h1><div class="${cls}">${body(6, topic)}</div></main>`));
      assert.ok(md.includes(`paragraph 6 says what happened to ${topic}`), md);
    });
  }

  it('still leaves out a share bar and a subscribe box', () => {
    const md = extract(page(`<main><h1>Upper floors</h1><div class="entry">${body(6)}</div><div class="share-bar"><p>Share this story with your friends on every network you use, it only takes a second.</p></div><div class="subscribe-box"><p>Subscribe to our daily newsletter and get the top stories in your inbox every single morning.</p></div></main>`));
    assert.ok(!md.includes('share this story') && !md.includes('daily newsletter'), md);
  });
});

describe('an accordion of questions', () => {
  const faq = (n: number) =>
    Array.from({ length: n }, (_, i) => `<div class="panel panel-default"><div class="panel-heading" role="tab" id="h${i}"><h4 class="panel-title"><a role="button" data-toggle="collapse" data-parent="#acc" href="#c${i}" aria-expanded="false" aria-controls="c${i}" class="collapsed">Question ${i + 1}: how do I renew my permit?</a></h4></div><div id="c${i}" class="panel-collapse collapse" role="tabpanel"><div class="panel-body"><p>Answer ${i + 1}: permits can be renewed online up to four weeks before they expire.</p></div></div></div>`).join('');

  it('keeps the questions and answers of a tablist that is an accordion (Bootstrap 3)', () => {
    const md = extract(page(`<div class="container"><div class="col-md-9"><h1>Permit questions</h1><div class="panel-group" id="acc" role="tablist" aria-multiselectable="true">${faq(5)}</div></div></div>`));
    assert.ok(md.includes('question 5 how do i renew') && md.includes('answer 5 permits can be renewed'), md);
  });

  it('reads a toggle link as text, not as a link to elsewhere', () => {
    const html = page(`<main><h1>Permit questions</h1><div class="accordion">${faq(5)}</div></main>`);
    const md = extractMarkdown({ html, url: 'https://x.test/a', includeLinks: true }).markdown;
    assert.ok(md.includes('Question 5: how do I renew my permit?') && !md.includes('#c4'), md);
    assert.ok(md.includes('Answer 5: permits'), md);
  });

  it('still leaves out a bar of tabs', () => {
    const md = extract(page(`<main><h1>Upper floors</h1><div role="tablist"><button role="tab">Overview of the plan</button><button role="tab">Specifications and figures</button></div>${body(5)}</main>`));
    assert.ok(!md.includes('overview of the plan'), md);
  });
});

describe('a section id that one word of its heading spells', () => {
  it('is an anchor where the heading links to it (a docs permalink)', () => {
    const md = extract(page(`<main><h1>Lexical analysis</h1>${body(3, 'the tokens')}<section id="comments"><h2>Comments<a class="headerlink" href="#comments">¶</a></h2>${body(4, 'the comment syntax')}</section></main>`));
    assert.ok(md.includes('paragraph 4 says what happened to the comment syntax'), md);
  });

  it('stays a comment thread without the permalink', () => {
    const md = extract(page(`<main><article><h1>Upper floors</h1>${body(5)}</article><section id="comments"><h2>Talk</h2><p>I fully agree with this, the town centre has been empty for years and nobody seems to care at all.</p></section></main>`));
    assert.ok(md.includes('paragraph 5 says') && !md.includes('fully agree'), md);
  });
});

describe('a page grid of a wide column and a side column of cards', () => {
  const card = (title: string, text: string) => `<div class="card mb-4"><div class="card-body"><h4 class="card-title">${title}</h4><p class="card-text">${text}</p></div></div>`;
  const cards =
    card('About the Friends', 'Friends of Fernhill Park is a volunteer group founded in 2009 by residents who wanted to save the bandstand from demolition, and since then we have raised more than eighty thousand pounds.') +
    card('Membership', 'Membership costs five pounds a year, and members receive a quarterly newsletter, invitations to our summer picnic and a vote at the annual general meeting of the group.') +
    card('Next event', 'Bat walk on Friday 17 May, meeting at the bandstand at half past eight. Bring a torch, wear sturdy shoes and expect to be out for about ninety minutes in the dark.');

  it('takes the wide column, not the cards whose names read as content (card-body, card-text)', () => {
    const md = extract(page(`<main class="container"><div class="row"><div class="col-md-8"><h1>Spring clean-up</h1>${body(3, 'the park')}</div><div class="col-md-4">${cards}</div></div></main>`));
    assert.ok(md.includes('paragraph 3 says what happened to the park'), md);
    assert.ok(!md.includes('membership costs') && !md.includes('bat walk'), md);
  });
});

describe('a page builder whose blocks are named widgets', () => {
  it('reads SiteOrigin panels (so-panel widget widget_sow-editor) as the article', () => {
    const panel = (i: number) =>
      `<div class="panel-grid panel-no-style"><div class="panel-grid-cell"><div class="so-panel widget widget_sow-headline"><div class="so-widget-sow-headline"><h2 class="sow-headline">Step ${i + 1}</h2></div></div><div class="so-panel widget widget_sow-editor"><div class="so-widget-sow-editor so-widget-sow-editor-base"><div class="siteorigin-widget-tinymce textwidget">${body(2, `step ${i + 1} of the meadow`)}</div></div></div></div></div>`;
    const md = extract(page(`<main><article><h1>Our approach to meadows</h1><div class="entry-content"><div class="panel-layout">${[0, 1, 2].map(panel).join('')}</div></div></article></main><div class="widget-area"><aside class="widget widget_text"><p>Meadowmakers is a small cooperative of ecologists and gardeners based in Shropshire, founded in 2011.</p></aside></div>`));
    for (const i of [1, 2, 3]) assert.ok(md.includes(`paragraph 2 says what happened to step ${i} of the meadow`), md);
  });
});

describe('the language of a code block named by its highlighter wrapper', () => {
  it('reads Jekyll, Sphinx and GitHub wrappers, and no language from a bare "highlight"', () => {
    const html = page(`<main><h1>Code</h1>${body(3)}<div class="language-cpp highlighter-rouge"><div class="highlight"><pre class="highlight"><code>int main() { return 0; }</code></pre></div></div><div class="highlight-python notranslate"><div class="highlight"><pre>print("hi")</pre></div></div><div class="highlight highlight-source-rust"><pre>let x = 1;</pre></div><div class="highlight"><pre>plain text</pre></div></main>`);
    const md = extractMarkdown({ html, url: 'https://x.test/a', includeLinks: false }).markdown;
    for (const fence of ['```cpp\nint main', '```python\nprint', '```rust\nlet x', '```\nplain text']) assert.ok(md.includes(fence), md);
  });
});

describe('closing lines in other scripts', () => {
  it('leaves out a Korean reporter\'s sign-off at the end, and a bare "Was this helpful?"', () => {
    const md = extract(page(`<main><article><h1>심야버스 노선 신설</h1>${body(4)}<p>김민준 기자 mjkim@dailycity.example</p><p>Was this helpful?</p></article></main>`));
    assert.ok(md.includes('paragraph 4 says') && !md.includes('기자') && !md.includes('was this helpful'), md);
  });
});
