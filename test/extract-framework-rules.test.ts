/**
 * API-01 rules for pages whose markup names little by meaning (the pages of
 * test/fixtures/framework-pages.ts: hashed or utility classes, site builders, forum and Q&A
 * threads), each with look-alikes that must not trigger it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';

const md = (html: string) => extractMarkdown({ html, url: 'https://x.test/', includeLinks: false }).markdown;
const para = (s: string) => `<p>${s}: this paragraph carries enough prose, with commas, clauses and a full stop, to count as main text on any page.</p>`;
const paras = (s: string, n: number) => Array.from({ length: n }, (_, i) => para(`${s} ${i}`)).join('');

describe('headings in components of their own', () => {
  const rich = (id: string, inner: string) => `<div id="comp-${id}" class="Hc0 comp-${id} wixui-rich-text">${inner}</div>`;

  it('keeps a heading component between the text components it heads (Wix rich text, AEM title)', () => {
    const out = md(`<html><body><div class="grid">${rich('a1', paras('Opening', 3))}${rich('a2', '<h2 class="font_2"><span>Second part of the story</span></h2>')}${rich('a3', paras('Closing', 3))}</div></body></html>`);
    assert.match(out, /## Second part of the story\n\nClosing 0/);
    const aem = md(`<html><body><div class="aem-Grid"><div class="text aem-GridColumn"><div class="cmp-text">${paras('Opening', 3)}</div></div><div class="title aem-GridColumn"><div class="cmp-title"><h2 class="cmp-title__text">How the route was chosen</h2></div></div><div class="text aem-GridColumn"><div class="cmp-text">${paras('Closing', 3)}</div></div></div></body></html>`);
    assert.match(aem, /## How the route was chosen\n\nClosing 0/);
  });

  it('leaves out a heading component whose next block was left out (a label over teaser links)', () => {
    const out = md(`<html><body><div class="grid">${rich('a1', paras('Story', 4))}${rich('a2', '<h2>More from the valley</h2>')}<div class="cards"><a href="/a">Harbour wall repairs start in June</a> <a href="/b">A shelter for the quay stop</a></div>${rich('a4', paras('Story', 1))}</div></body></html>`);
    assert.match(out, /Story 3/);
    assert.doesNotMatch(out, /More from the valley/);
  });

  it('reads a heading under layout wrappers of one child as a heading block (Notion `notion-header-block`), but not one beside a link', () => {
    const block = (cls: string, inner: string) => `<div class="notion-selectable notion-${cls}-block"><div style="color:inherit"><div style="display:flex">${inner}</div></div></div>`;
    const body = (extra: string) => `<html><body><div class="notion-page-content">${block('text', `<div data-content-editable-leaf="true">${'Opening words of the page, written as a long sentence with commas, clauses and more. '.repeat(4)}</div>`)}${block('header', '<h2>Choosing the next book</h2>')}${extra}${block('text', `<div data-content-editable-leaf="true">${'Closing words of the page, written as another long sentence, with commas and a stop. '.repeat(4)}</div>`)}</div></body></html>`;
    assert.match(md(body('')), /## Choosing the next book/);
    const cta = md(body('<div class="footer-note"><div class="inner"><h2>Sign up for more like this</h2><a href="/signup">Enter your email to subscribe</a></div></div>'));
    assert.doesNotMatch(cta, /Sign up for more like this/);
  });
});

describe('threads: a question and its answers, a first post and its replies', () => {
  const body = (cls: string, s: string, n: number) => `<div class="${cls}">${paras(s, n)}</div>`;
  const answer = (s: string) => `<div class="answer"><div class="post-layout"><div class="votecell">7</div><div class="answercell">${body('s-prose js-post-body', s, 3)}<div class="post-signature"><div class="user-info"><a href="/u/1">greta</a> <span>4,210</span></div></div></div></div></div>`;

  it('keeps the question beside the block of its answers when both hold bodies of one template (two or more in the choice)', () => {
    const out = md(`<html><body><div id="mainbar"><div class="question"><div class="post-layout"><div class="votecell">12</div><div class="postcell">${body('js-post-body s-prose', 'Question', 2)}</div></div></div><div id="answers">${answer('First answer')}${answer('Second answer')}${answer('Third answer')}</div></div></body></html>`);
    assert.match(out, /Question 0/);
    assert.match(out, /First answer 2/);
    assert.match(out, /Second answer 2/);
    assert.doesNotMatch(out, /greta|4,210/);
  });

  it('does not join a box beside an article that only shares the class of its one text block (a claim under review)', () => {
    const out = md(`<html><body><div class="row"><div class="claim"><h4 class="who">The ministry of roads</h4><div class="statement-content">${body('wsw', 'Claim', 2)}</div><div class="source"><a href="/src">Source: press office, May 2024</a></div></div><div class="col">${body('wsw', 'Article', 8)}</div></div></body></html>`);
    assert.match(out, /Article 7/);
    assert.doesNotMatch(out, /Claim 0/);
  });

  it('drops forum user cards, signatures and the who-is-online box by their class names', () => {
    const post = (s: string) => `<div class="post"><dl class="postprofile"><dt><a href="/u">hedgerow</a></dt><dd>Joined: Tue Mar 14, 2017 6:41 pm</dd></dl><div class="postbody"><div class="content">${paras(s, 2)}</div><div class="signature">Plot 14, north side, mostly beans and stubbornness since the spring of 2009.</div></div></div>`;
    const out = md(`<html><body><div id="page-body">${post('First post')}${post('Reply')}<div class="stat-block online-list"><h3>Who is online</h3><p>Users browsing this forum: no registered users and 2 guests at the moment.</p></div></div></body></html>`);
    assert.match(out, /First post 1/);
    assert.match(out, /Reply 1/);
    assert.doesNotMatch(out, /hedgerow|Joined|beans|Who is online|guests/);
  });

  it('keeps classes that only begin like those names (`user-info-panel` is not read, `signature-dish` is prose)', () => {
    const out = md(`<html><body><article><div class="signature-dish">${paras('Recipe', 3)}</div></article></body></html>`);
    assert.match(out, /Recipe 2/);
  });
});

describe('a heading that closes the content', () => {
  it('is dropped: it heads nothing that was kept', () => {
    const out = md(`<html><body><article>${paras('Story', 4)}<h2 class="bottom-notice">Not the answer you are looking for? Browse other questions</h2></article></body></html>`);
    assert.match(out, /Story 3/);
    assert.doesNotMatch(out, /Not the answer/);
  });

  it('stays when text follows it, and when it is the only block', () => {
    assert.match(md(`<html><body><article>${paras('Story', 4)}<h2>Closing thoughts</h2>${para('Last')}</article></body></html>`), /## Closing thoughts\n\nLast/);
    assert.match(md('<html><body><h1>Only a heading on this page</h1></body></html>'), /Only a heading on this page/);
  });
});

describe('replies named as comments on a discussion page', () => {
  const reply = (s: string) => `<article class="comment js-comment"><footer class="comment__meta"><a href="/u">dev</a></footer><div class="comment__content"><div class="field field--name-comment-body">${paras(s, 2)}</div></div></article>`;
  const page = (bodyClass: string, itemtype = '') => `<html><body class="${bodyClass}"><main${itemtype}><article class="node"><h1>Hall heating on Sunday mornings</h1><div class="node__content"><div class="field field--name-body">${paras('First post', 2)}</div><section class="comments"><h2>Comments</h2>${reply('First reply')}${reply('Second reply')}</section></div></article></main></body></html>`;

  it('keeps replies that hold paragraphs when the page says it is a forum topic or Q&A (body class of a forum content type, schema.org microdata)', () => {
    for (const html of [page('path-node page-node-type-forum'), page('single single-topic'), page('x', ' itemscope itemtype="https://schema.org/DiscussionForumPosting"')]) {
      const out = md(html);
      assert.match(out, /First post 1/, html.slice(0, 80));
      assert.match(out, /First reply 1[\s\S]*Second reply 1/, html.slice(0, 80));
    }
  });

  it('without a discussion signal (an article page, a newspaper section named Forum), replies classed `comment` stay out as a comment thread: the markup alone cannot tell a forum reply from a blog comment, and a brief can be shorter than its comments', () => {
    for (const cls of ['path-node page-node-type-article', 'section-forum']) {
      const out = md(page(cls));
      assert.match(out, /First post 1/);
      assert.doesNotMatch(out, /First reply|Second reply/, cls);
    }
  });

  it('drops remarks of a line under a post on a Q&A page (a comment list without paragraphs)', () => {
    const remarks = '<div class="comments"><ul class="comments-list"><li class="comment"><span class="comment-copy">Have you tried setting the timeout higher first? It fixed the same problem for me on an older version of the runner, so it is worth a try.</span></li><li class="comment"><span class="comment-copy">This worked for me as well, thanks, although I had to restart the service twice before it took effect on every machine.</span></li></ul></div>';
    const out = md(`<html><body><div itemscope itemtype="https://schema.org/QAPage"><div class="question">${paras('Question', 3)}${remarks}</div></div></body></html>`);
    assert.match(out, /Question 2/);
    assert.doesNotMatch(out, /timeout higher|restart the service/);
  });
});

describe('climbing from the article to its wrappers', () => {
  it('stops below a wrapper that adds text after the article (a site note in a plain div of an app shell)', () => {
    const out = md(`<html><body><div id="__nuxt"><div class="app"><div class="page"><h1>The lending shelf</h1><div class="nuxt-content">${paras('Story', 6)}</div></div><div class="bottom"><p>Commons is a small site about places we share.</p></div></div></div></body></html>`);
    assert.match(out, /Story 5/);
    assert.doesNotMatch(out, /small site about places/);
  });

  it('still joins a short sentence after an article whose headline is elsewhere (a split-off closing line)', () => {
    const out = md(`<html><body><div class="main"><div class="story">${paras('Story', 6)}</div><div class="end"><p>That is all for this week.</p></div><div class="other"><a href="/a">Archive</a></div></div></body></html>`);
    assert.match(out, /Story 5[\s\S]*That is all for this week\./);
  });

  it('still climbs to a wrapper that adds the headline and standfirst before the article, or only links after it', () => {
    const out = md(`<html><body><div class="wrap"><div class="head"><h2>A standfirst heading over the story</h2><p>Short intro line.</p></div><div class="text">${paras('Story', 6)}</div><div class="tags"><a href="/t/a">gardens</a> <a href="/t/b">volunteers</a></div></div><div class="other">${paras('Unrelated', 1)}</div></body></html>`);
    assert.match(out, /A standfirst heading over the story[\s\S]*Short intro line[\s\S]*Story 5/);
  });
});
