/** API-01 extraction core: structure kept, boilerplate dropped, URLs resolved, never empty when text exists. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';

const PROSE =
  'The committee met on Tuesday to discuss the new proposal, which had been drafted over several months by a group of volunteers. ' +
  'Members raised questions about the budget, the timeline, and the way progress would be measured once the work began in earnest.';

function page(article: string, extra = ''): string {
  return `<!doctype html><html><head><title>Budget talks resume after long pause | Example News</title>
  <style>.x{color:red}</style><script>var tracking = "SCRIPT_TEXT";</script></head>
  <body>
    <header class="site-header"><a href="/">Example News</a><nav><a href="/world">World</a> <a href="/tech">Tech</a></nav></header>
    <div id="cookie-banner">We use cookies to improve your experience. Accept all cookies?</div>
    <main><article>${article}</article></main>
    <aside class="sidebar"><h3>Most read</h3><ul><li><a href="/a">SIDEBAR_LINK one</a></li><li><a href="/b">Two</a></li></ul></aside>
    <div class="newsletter-signup">Subscribe to our NEWSLETTER_TEXT today</div>
    <section id="comments"><p>COMMENT_TEXT: I disagree with this article entirely, and here is why, at length.</p></section>
    <footer>FOOTER_TEXT © Example</footer>${extra}
  </body></html>`;
}

function extract(html: string, includeLinks = true, url = 'https://news.example.com/politics/2024/budget.html') {
  return extractMarkdown({ html, url, includeLinks });
}

describe('extraction keeps the article structure', () => {
  const html = page(`
    <h1>Budget talks resume</h1>
    <p>${PROSE}</p>
    <h2>___</h2>
    <p>* * *</p>
    <h2>What was <em>agreed</em></h2>
    <p>First, <strong>the budget</strong> was approved; second, a <a href="../../about/team.html">team page</a> was promised.<br>A new line follows.</p>
    <ul><li>Item one<ul><li>Nested item</li></ul></li><li>Item two</li></ul>
    <ol start="3"><li>Third</li><li>Fourth</li></ol>
    <table><thead><tr><th>Year</th><th>Amount</th></tr></thead><tbody><tr><td>2023</td><td>1 | 2</td></tr><tr><td>2024</td><td>3</td></tr></tbody></table>
    <pre><code class="language-python">def f(x):
    return x * 2</code></pre>
    <blockquote><p>${PROSE}</p></blockquote>
    <p>Inline <code>npm test</code> and <del>old</del> text with &amp; entities &eacute; &#8212; decoded.</p>
    <figure><img src="/img/chart.png" alt="Budget chart"><figcaption>The chart caption.</figcaption></figure>
    <p>${PROSE}</p>`);
  const { markdown, title } = extract(html);

  const expectations: readonly [string, RegExp][] = [
    ['the article text first (its h1 repeats the title and is the title field)', /^The committee met/],
    ['h2 heading with emphasis', /^## What was \*agreed\*$/m],
    ['strong', /\*\*the budget\*\*/],
    ['absolute link', /\[team page\]\(https:\/\/news\.example\.com\/about\/team\.html\)/],
    ['hard line break', / {2}\nA new line follows\./],
    ['nested list', /^- Item one\n {2}- Nested item\n- Item two$/m],
    ['ordered list honours start', /^3\. Third\n4\. Fourth$/m],
    ['GFM table header', /^\| Year \| Amount \|\n\| --- \| --- \|$/m],
    ['GFM table escapes pipes', /^\| 2023 \| 1 \\\| 2 \|$/m],
    ['fenced code with language', /^```python\ndef f\(x\):\n {4}return x \* 2\n```$/m],
    ['block quote', /^> The committee met/m],
    ['inline code', /`npm test`/],
    ['strikethrough', /~~old~~/],
    ['entities decoded', /with & entities é — decoded/],
    ['image with absolute src', /!\[Budget chart\]\(https:\/\/news\.example\.com\/img\/chart\.png\)/],
    ['figure caption', /The chart caption\./],
  ];
  for (const [name, re] of expectations) it(`keeps ${name}`, () => assert.match(markdown, re));

  const dropped = ['SCRIPT_TEXT', 'color:red', 'SIDEBAR_LINK', 'NEWSLETTER_TEXT', 'COMMENT_TEXT', 'FOOTER_TEXT', 'cookies', 'World'];
  for (const word of dropped) it(`drops ${word}`, () => assert.doesNotMatch(markdown, new RegExp(word)));

  it('takes the title from the page without the site suffix', () => assert.equal(title, 'Budget talks resume after long pause'));
  it('drops headings and paragraphs without letters or digits', () => {
    assert.doesNotMatch(markdown, /___|\\_|\* \* \*/);
  });
  it('keeps a leading heading that is not the title', () => {
    const r = extract(page(`<h1>A different headline</h1><p>${PROSE}</p><p>${PROSE}</p>`));
    assert.match(r.markdown, /^# A different headline\n/);
  });
});

describe('nested block quotes', () => {
  it('prefixes every line once per quote around it, a blank line with a last ">", and a quote in a list item under the item', () => {
    const html = `<body><article><p>${PROSE}</p><blockquote><p>Outer one.</p><blockquote><p>Inner one.</p><p>Inner two.</p><blockquote><p>Deepest.</p></blockquote></blockquote><ul><li>Item<blockquote><p>In item.</p><blockquote><p>Deeper in item.</p></blockquote></blockquote></li></ul><pre>code\n\nline</pre><p>Outer two.</p></blockquote></article>`;
    const quote = [
      '> Outer one.', '>', '> > Inner one.', '> >', '> > Inner two.', '> >', '> > > Deepest.', '>',
      '> - Item', '>   > In item.', '>   >', '>   > > Deeper in item.', '>', '> ```', '> code', '>', '> line', '> ```', '>', '> Outer two.',
    ];
    assert.equal(extract(html, false).markdown, `${PROSE}\n\n${quote.join('\n')}`);
  });
});

describe('links and URLs', () => {
  const html = page(`<p>${PROSE} See <a href="/x?a=1">the report</a> and <a href="javascript:void(0)">this</a>.</p><p><img data-src="lazy.jpg" src="data:image/gif;base64,R0lGOD" alt="Lazy"></p><p>${PROSE}</p>`);

  it('drops link targets and images when include_links is false but keeps the text', () => {
    const { markdown } = extract(html, false);
    assert.match(markdown, /See the report and this\./);
    assert.doesNotMatch(markdown, /\]\(|https?:/);
  });
  it('never emits javascript: targets and resolves lazy images', () => {
    const { markdown } = extract(html, true);
    assert.match(markdown, /\[the report\]\(https:\/\/news\.example\.com\/x\?a=1\) and this\./);
    assert.match(markdown, /!\[Lazy\]\(https:\/\/news\.example\.com\/politics\/2024\/lazy\.jpg\)/);
  });
  it('honours <base href>', () => {
    const withBase = html.replace('<head>', '<head><base href="https://cdn.example.org/assets/">');
    assert.match(extract(withBase).markdown, /!\[Lazy\]\(https:\/\/cdn\.example\.org\/assets\/lazy\.jpg\)/);
  });
});

describe('pages that are not articles', () => {
  it('returns the readable text of a page made of short fragments', () => {
    const { markdown } = extract('<html><body><div>Opening hours</div><div>Mon-Fri 9-17</div><span>Call us: 555-0100</span></body></html>');
    assert.match(markdown, /Opening hours/);
    assert.match(markdown, /555-0100/);
  });
  it('returns text when every block carries a boilerplate class', () => {
    const { markdown } = extract('<html><body><div class="sidebar">Only this sentence is on the page.</div></body></html>');
    assert.match(markdown, /Only this sentence is on the page\./);
  });
  it('returns the text of a page whose only text is in its nav and footer', () => {
    const { markdown } = extract('<html><body><nav><a href="/a">About us</a></nav><footer>Contact: 555-0100</footer></body></html>');
    assert.match(markdown, /About us/);
    assert.match(markdown, /555-0100/);
  });
  it('returns an empty string for a page without text', () => {
    const r = extract('<html><head><title>Empty</title><script>x()</script></head><body><div></div></body></html>');
    assert.equal(r.markdown, '');
    assert.equal(r.markdownLength, 0);
    assert.equal(r.title, 'Empty');
  });
  it('drops hidden elements', () => {
    const body = `<p>${PROSE}</p><p hidden>HIDDEN_ATTR</p><div style="display: none">HIDDEN_STYLE</div><span aria-hidden="true">HIDDEN_ARIA</span><p>${PROSE}</p>`;
    const { markdown } = extract(page(body));
    assert.doesNotMatch(markdown, /HIDDEN_/);
  });
  it('passes plain text through', () => {
    const r = extractMarkdown({ html: 'line one\r\nline two\n', url: 'https://x.example/a.txt', includeLinks: true, isHtml: false });
    assert.equal(r.markdown, 'line one\nline two');
    assert.equal(r.title, null);
  });
  it('survives malformed HTML', () => {
    const { markdown } = extract(`<div><p>${PROSE}<div><table><tr><td>cell<p>${PROSE}</span></table></b></i>`);
    assert.match(markdown, /The committee met/);
  });
});

describe('hostile input', () => {
  it('keeps the text of 500 nested elements (flattened past the depth limit)', () => {
    const html = '<div>'.repeat(500) + `<p>${PROSE}</p>` + '</div>'.repeat(500);
    assert.match(extract(html).markdown, /The committee met/);
  });
  it('answers quickly for 200,000 unclosed elements instead of parsing in quadratic time', () => {
    const t0 = performance.now();
    const r = extract('<div>'.repeat(200_000) + 'tail');
    assert.equal(typeof r.markdown, 'string');
    assert.ok(performance.now() - t0 < 3000, `${performance.now() - t0} ms`);
  });
  it('survives 100,000 nested lists', () => {
    assert.equal(typeof extract('<ul><li>'.repeat(100_000)).markdown, 'string');
  });
  it('does not throw on an element with 130,000 children or a table of 130,000 rows (no spread of them as arguments)', () => {
    const many = extract('<div>' + '<b>x</b>'.repeat(130_000), false).markdown;
    assert.ok(many.length > 100_000);
    const rows = extract('<body><table>' + '<tr><td>a<td>b'.repeat(130_000), false).markdown;
    assert.ok(rows.length > 100_000);
  });

  it('joins the text around many left-out elements in linear time (4x the page, under 8x the time)', () => {
    const page = (k: number) => '<body><div>' + ' word<span class="ad">x</span>'.repeat(k) + '</div>';
    const time = (k: number): number => {
      let best = Infinity;
      for (let r = 0; r < 2; r++) {
        const t0 = performance.now();
        extract(page(k), false);
        best = Math.min(best, performance.now() - t0);
      }
      return best;
    };
    const small = time(8_000);
    const large = time(32_000);
    assert.ok(large < 8 * small + 40, `${small.toFixed(1)} ms, then ${large.toFixed(1)} ms`);
  });

  it('answers quickly for 30,000 comment headings and embedded posts side by side in one block', () => {
    const t0 = performance.now();
    const body = `<p>${PROSE}</p>` + '<h3>Comments</h3><p>A reader wrote this.</p><blockquote class="twitter-tweet"><p>x</p></blockquote>'.repeat(30_000);
    const r = extract(`<html><body><div>${body}</div></body></html>`);
    assert.equal(typeof r.markdown, 'string');
    assert.ok(performance.now() - t0 < 3000, `${performance.now() - t0} ms`);
  });
});

describe('numbers', () => {
  it('counts markdown_length in code points and never reports negative savings', () => {
    const r = extract('<p>😀 é</p>');
    assert.equal(r.markdown, '😀 é');
    assert.equal(r.markdownLength, 3);
    assert.ok(r.tokensSaved >= 0);
    assert.equal(r.tokensSaved, Math.max(0, r.htmlTokens - r.markdownTokens));
  });
  it('saves tokens on a page with chrome', () => {
    const r = extract(page(`<p>${PROSE}</p><p>${PROSE}</p>`));
    assert.ok(r.tokensSaved > r.markdownTokens, `${r.tokensSaved} vs ${r.markdownTokens}`);
  });
});

describe('main text beside the chosen block', () => {
  const para = (n: number) => `<p>Paragraph ${n}: ${PROSE}</p>`;
  const deep = (inner: string) => `<div class="wrap"><section><div class="inner"><div class="rich"><div class="copy">${inner}</div></div></div></section></div>`;

  it('joins a section of the article that shares the chosen block\'s class even when its text sits too deep to score', () => {
    const html = `<html><body><div id="col">
      <div class="part">${deep(para(1) + para(2) + para(3))}</div>
      <div class="part">${para(4) + para(5) + para(6) + para(7) + para(8) + para(9)}</div>
      <div class="teasers"><p><a href="/x">LINKED_TEASER one of the other stories on the site</a></p><p><a href="/y">Another story that is linked</a></p></div>
    </div></body></html>`;
    const md = extract(html).markdown;
    for (let n = 1; n <= 9; n++) assert.match(md, new RegExp(`Paragraph ${n}:`));
    assert.doesNotMatch(md, /LINKED_TEASER/);
  });

  it('keeps a lead paragraph wrapped in a block whose class reads as boilerplate (div.leaf-media > p), not an author note after the article', () => {
    const html = `<html><body><div class="body">
      <div class="leaf-media"><p>LEAD_TEXT (Agency) The talks ended late on Monday without an agreement, officials said, and will resume next week.</p></div>
      <div class="article-text">${para(1) + para(2) + para(3) + para(4)}</div>
      <div class="leaf-media"><p><a href="/z">READ_MORE_TEASER: other talks</a></p></div>
      <div class="author-note"><p>AUTHOR_NOTE Jane Doe covers city politics for the paper and has written about the council for ten years.</p></div>
    </div></body></html>`;
    const md = extract(html).markdown;
    assert.match(md, /LEAD_TEXT \(Agency\) The talks ended/);
    assert.match(md, /Paragraph 4:/);
    assert.doesNotMatch(md, /READ_MORE_TEASER/);
    assert.doesNotMatch(md, /AUTHOR_NOTE/, 'a wrapper with a negative hint after the article stays out');
  });

  it('keeps a short paragraph that is mostly links when it reads as a sentence, and drops a linked teaser', () => {
    const html = page(`${para(1)}<p>The <a href="/a">founder of the site</a> faces <a href="/b">a charge of conspiracy in court</a> this week.</p><p>Read more: <a href="/c">TEASER_HEADLINE about something else entirely</a></p>${para(2)}`);
    const md = extract(html, false).markdown;
    assert.match(md, /The founder of the site faces a charge of conspiracy in court this week\./);
    assert.doesNotMatch(md, /TEASER_HEADLINE/);
  });
});

describe('paragraphs each in a wrapper of their own', () => {
  it('takes the wrappers\' parent, not the longest paragraph\'s wrapper, on a page without names or sectioning tags', () => {
    const short = ['LEAD_TEXT The council approved the plan on Monday.', 'It takes effect in March, officials said.', 'Two members voted against it.'];
    const long = `LONG_TEXT ${PROSE} ${PROSE}`;
    // Arc-style text blocks: <div><div><p>…</p>(an empty ad slot)</div></div> per paragraph.
    const block = (text: string) => `<div data-type="text"><div><p>${text}</p><div><div></div></div></div></div>`;
    const html = `<html><body><div><div><a href="/">Home</a> <a href="/news">News</a></div>
      <div><h1>Council approves the plan</h1><div>By Jane Doe | March 3, 2024</div>
      <div>${short.map(block).join('')}${block(long)}${block('LAST_TEXT The plan will be reviewed after a year, the mayor added.')}</div></div>
      <div><a href="/a">Other story one</a> <a href="/b">Other story two</a></div></div></body></html>`;
    const md = extract(html, false).markdown;
    for (const marker of ['LEAD_TEXT', 'It takes effect in March', 'Two members voted', 'LONG_TEXT', 'LAST_TEXT']) assert.match(md, new RegExp(marker));
    assert.doesNotMatch(md, /Other story/);
  });

  it('keeps a single long paragraph when its neighbours are other pages\' teasers', () => {
    const html = `<html><body><div>
      <div><div><p>ARTICLE_TEXT ${PROSE} ${PROSE}</p></div></div>
      <div><ul><li><a href="/a">TEASER one of the other stories on the site today</a></li><li><a href="/b">TEASER two of the other stories on the site</a></li></ul></div>
    </div></body></html>`;
    const md = extract(html, false).markdown;
    assert.match(md, /ARTICLE_TEXT/);
    assert.doesNotMatch(md, /TEASER/);
  });
});

describe('comment threads and link boxes told by their headings (no names, no sectioning tags)', () => {
  const article = `<div><h1>Coach says the team needed the win</h1><p>ARTICLE_LEAD The coach said after the game that the loss ends the season's hopes. ${PROSE}</p><p>${PROSE}</p><p>ARTICLE_END Instead, they lost 24-17, and the next game is away.</p></div>`;
  const comment = (n: number) => `<li><div><b>fan${n}</b> says:</div><p>COMMENT_${n} ${PROSE}</p><a href="#r">Reply</a></li>`;
  const thread = (heading: string) => `<div><h2>${heading}</h2><ol>${[1, 2, 3, 4, 5, 6].map(comment).join('')}</ol></div>`;
  const page = (after: string) => `<html><body><div><div><a href="/">Home</a></div><div>${article}${after}</div></div></body></html>`;

  for (const heading of ['34 responses to “Coach says the team needed the win”', 'Comments (12)', 'Top Rated Comments', 'Leave a Reply', '12 Kommentare', 'Commentaires', '网友评论', '《教练：我们需要这场胜利》已有1件评论', '3件のコメント', 'Yorumlar', '댓글 12']) {
    it(`a longer comment thread under "${heading}" does not win over the article`, () => {
      const md = extract(page(thread(heading)), false).markdown;
      assert.match(md, /ARTICLE_LEAD/);
      assert.match(md, /ARTICLE_END/);
      assert.doesNotMatch(md, /COMMENT_/);
    });
  }

  it('a short post (an open thread) is the content, not the longer thread under its "Comments" heading', () => {
    const html = `<html><body><div><div><h1>September open thread</h1><p>POST_TEXT Our goal with open threads is to let readers raise questions in public.</p></div>
      <div><h3>Comments</h3><ul>${[1, 2, 3, 4, 5].map((n) => `<li><div><strong>Reader ${n}</strong> said:</div><p>COMMENT_${n} ${PROSE}</p></li>`).join('')}</ul></div></div></body></html>`;
    const md = extract(html, false).markdown;
    assert.match(md, /POST_TEXT/);
    assert.doesNotMatch(md, /COMMENT_/);
  });

  it('on a forum page (schema.org DiscussionForumPosting) the replies under "3 replies" stay', () => {
    const html = `<html><body><div itemscope itemtype="https://schema.org/DiscussionForumPosting"><h1>Which bike for commuting?</h1><p>QUESTION_TEXT I ride 12 km each way; what should I buy?</p>
      <div><h3>3 replies</h3>${[1, 2, 3].map((n) => `<div><p>REPLY_${n} ${PROSE}</p></div>`).join('')}</div></div></body></html>`;
    const md = extract(html, false).markdown;
    for (const marker of ['REPLY_1', 'REPLY_2', 'REPLY_3']) assert.match(md, new RegExp(marker));
  });

  it('a comment heading among the article\'s blocks takes the thread after it', () => {
    const html = `<html><body><div><div><p>ARTICLE_LEAD ${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p><p>ARTICLE_END The plan takes effect in March.</p><h3>3 Comments</h3>${[1, 2, 3, 4].map((n) => `<div><p>COMMENT_${n} ${PROSE}</p></div>`).join('')}</div></div></body></html>`;
    const md = extract(html, false).markdown;
    assert.match(md, /ARTICLE_END/);
    assert.doesNotMatch(md, /COMMENT_|3 Comments/);
  });

  it('a box of teasers under "More <Site>" with more prose than a short article does not win', () => {
    const teaser = (n: number) => `<li><h5><a href="/t${n}">TEASER_${n} headline of another story</a></h5><div>Jane Doe</div><p>TEASER_TEXT_${n} ${PROSE}</p></li>`;
    const html = page(`<div><h5>More Example Examiner</h5><ul>${[1, 2, 3, 4].map(teaser).join('')}</ul></div>`);
    const md = extract(html, false).markdown;
    assert.match(md, /ARTICLE_LEAD/);
    assert.doesNotMatch(md, /TEASER/);
  });

  it('keeps sections of the article whose headings only start like those labels', () => {
    const section = (heading: string, marker: string) => `<div><h2>${heading}</h2><p>${marker} ${PROSE}</p></div>`;
    const html = `<html><body><div>${section('Comments on the draft rule', 'DRAFT_TEXT')}${section('More than a game', 'GAME_TEXT')}${section('Related work', 'WORK_TEXT')}${section('Responses from the industry', 'INDUSTRY_TEXT')}${section('Related post: the council votes again', 'STORY_TEXT')}</div></body></html>`;
    const md = extract(html, false).markdown;
    for (const marker of ['DRAFT_TEXT', 'GAME_TEXT', 'WORK_TEXT', 'INDUSTRY_TEXT', 'STORY_TEXT']) assert.match(md, new RegExp(marker));
  });
});

describe('comment threads told by their reply controls (no names, no headings)', () => {
  const article = `<div><h1>Footbridge approved</h1><p>ARTICLE_LEAD The council approved the footbridge on Monday. ${PROSE}</p><p>${PROSE}</p><p>ARTICLE_END Work starts in March.</p></div>`;
  // The article's paragraphs and the comments under them in one wrapper.
  const wrapper = (comments: number[], more = '') =>
    `<html><body><div><h1>Footbridge approved</h1><p>ARTICLE_LEAD ${PROSE}</p><p>PART_2 ${PROSE}</p><p>PART_3 ${PROSE}</p><p>ARTICLE_END Work starts in March.</p>${more}${comments.map((n) => `<div><p>COMMENT_${n} ${PROSE}</p><button>Reply</button></div>`).join('')}</div></body></html>`;
  const item = (n: number, reply: string) => `<div><div><b>reader${n}</b> <span>March ${n}, 2024</span></div><p>COMMENT_${n} ${PROSE}</p><div><a href="#r${n}">${reply}</a></div></div>`;

  for (const reply of ['Reply', 'Antworten', 'Répondre', 'Responder', '回复', '返信', '답글', '<span>Reply</span>']) {
    it(`drops a thread whose items each hold a "${reply}" control`, () => {
      const html = `<html><body><div><div><a href="/">Home</a></div><div>${article}<div>${[1, 2, 3, 4, 5, 6].map((n) => item(n, reply)).join('')}</div></div></div></body></html>`;
      const md = extract(html, false).markdown;
      assert.match(md, /ARTICLE_LEAD/);
      assert.match(md, /ARTICLE_END/);
      assert.doesNotMatch(md, /COMMENT_/);
    });
  }

  it('drops the comments that follow the article\'s paragraphs in one wrapper, and keeps the paragraphs', () => {
    const html = wrapper([1, 2, 3]);
    const md = extract(html, false).markdown;
    assert.match(md, /ARTICLE_LEAD[\s\S]*ARTICLE_END/);
    assert.doesNotMatch(md, /COMMENT_/);
  });

  it('keeps two blocks with reply buttons (fewer than a thread) and a paragraph that says "Reply"', () => {
    const md = extract(wrapper([1, 2], '<p>Reply</p><p>REPLY_WORD We will reply to every letter, the mayor said.</p>'), false).markdown;
    assert.match(md, /ARTICLE_END[\s\S]*COMMENT_1[\s\S]*COMMENT_2/);
    assert.match(md, /REPLY_WORD/);
  });

  it('keeps every post of a forum thread that does not say it is one (each post has a Reply button)', () => {
    const post = (n: number) => `<div><div><b>rider${n}</b></div><p>POST_${n} ${PROSE}</p><button>Reply</button></div>`;
    const html = `<html><body><div><a href="/">Forum</a></div><div><h1>Which bike for commuting?</h1>${[1, 2, 3, 4].map(post).join('')}</div></body></html>`;
    const md = extract(html, false).markdown;
    for (const marker of ['POST_1', 'POST_2', 'POST_3', 'POST_4']) assert.match(md, new RegExp(marker));
  });
});

describe('embedded posts', () => {
  it('keeps a tweet the article quotes in a wrapper named for social media, and drops the share box', () => {
    const tweet = `<div class="social-media-embed"><blockquote class="twitter-tweet"><p lang="en">TWEET_TEXT Yes this is real and the state spent half a million dollars on it</p>— Jane Doe (@janedoe) <a href="https://twitter.com/janedoe/status/1">November 18, 2019</a></blockquote><script src="https://platform.twitter.com/widgets.js"></script></div>`;
    const share = `<div class="social-share"><a href="https://facebook.com/share">SHARE_FACEBOOK</a> <a href="https://twitter.com/intent">SHARE_TWITTER</a></div>`;
    const html = page(`<h1>Budget talks resume</h1><p>${PROSE}</p><p>Many people on Twitter pointed it out.</p>${tweet}<p>${PROSE}</p>${share}`);
    const md = extract(html).markdown;
    assert.match(md, /TWEET_TEXT/);
    assert.match(md, /@janedoe/);
    assert.doesNotMatch(md, /SHARE_/);
  });
});

describe('text written straight into a container', () => {
  it('scores text between <br>s beside a figure and an ad slot, over a box of teaser paragraphs', () => {
    const run = (n: number) => `BR_TEXT ${n}: ${PROSE}<br><br>`;
    const teaser = (n: number) => `<p>Teaser ${n} about another story on the site, with a short summary of what it says, and why.</p>`;
    const html = `<html><body><div class="col">
      <div class="entry">${run(1)}<figure><img src="/a.jpg" alt=""></figure>${run(2)}<div class="slot">Advertisement</div>${run(3)}${run(4)}</div>
      <div class="box">${teaser(1) + teaser(2) + teaser(3) + teaser(4) + teaser(5) + teaser(6)}</div>
    </div></body></html>`;
    const md = extract(html).markdown;
    for (let n = 1; n <= 4; n++) assert.match(md, new RegExp(`BR_TEXT ${n}:`));
  });
});

describe('layout that formatting or scripts add around the text', () => {
  it('joins a short closing paragraph under wrappers of pretty-printed markup, as it joins the same paragraph written on one line', () => {
    const wrap = (inner: string) => `<section class="block">\n  <div class="container">\n    <div class="column">\n      ${inner}\n    </div>\n  </div>\n</section>`;
    const html = `<html><body><div class="page">\n${wrap(`<p>Paragraph 1: ${PROSE}</p>\n<p>Paragraph 2: ${PROSE}</p>\n<p>Paragraph 3: ${PROSE}</p>`)}\n${wrap('<p>CLOSING_TEXT Remember: a family is safer when it has a plan ready.</p>')}\n<div class="teasers"><a href="/x">Other story</a> <a href="/y">Another story</a></div>\n</div></body></html>`;
    const md = extract(html, false).markdown;
    assert.match(md, /Paragraph 3:/);
    assert.match(md, /CLOSING_TEXT Remember/);
  });

  it("reads an inactive tab's hidden panel, which its tab names, as the page's text", () => {
    const html = `<html><body><main><h1>Schedule</h1><p>Paragraph 1: ${PROSE}</p>
      <div role="tablist"><button role="tab" aria-selected="true" aria-controls="day_1">Day 1</button><button role="tab" aria-selected="false" aria-controls="day_2">Day 2</button></div>
      <div id="day_1" role="tabpanel"><p>DAY_ONE ${PROSE}</p></div><div id="day_2" role="tabpanel" hidden><p>DAY_TWO ${PROSE}</p></div>
      <div id="promo" hidden><p>HIDDEN_PROMO ${PROSE}</p></div></main></body></html>`;
    const md = extract(html, false).markdown;
    assert.match(md, /DAY_ONE/);
    assert.match(md, /DAY_TWO/);
    assert.doesNotMatch(md, /HIDDEN_PROMO/, 'a hidden block no tab names stays hidden');
  });

  it("keeps a FAQ whose questions are href-less links in the accordion's toggles (Elementor)", () => {
    const item = (k: number) =>
      `<div class="elementor-accordion-item"><div id="t${k}" class="elementor-tab-title" role="button" aria-controls="c${k}" aria-expanded="false"><a class="elementor-accordion-title" tabindex="0">QUESTION_${k} What should a family do when the water starts to rise?</a></div>` +
      `<div id="c${k}" class="elementor-tab-content" role="region"><p>ANSWER_${k} Switch off the power.</p></div></div>`;
    const html = `<html><body><div class="elementor"><section class="elementor-section"><div class="elementor-widget-container"><p>Paragraph 1: ${PROSE}</p><p>Paragraph 2: ${PROSE}</p></div></section>
      <section class="elementor-section"><div class="elementor-widget-container"><h2>FAQ</h2><div class="elementor-accordion">${[1, 2, 3].map(item).join('')}</div></div></section></div></body></html>`;
    const md = extract(html, false).markdown;
    for (const k of [1, 2, 3]) {
      assert.match(md, new RegExp(`QUESTION_${k}`));
      assert.match(md, new RegExp(`ANSWER_${k}`));
    }
  });
});
