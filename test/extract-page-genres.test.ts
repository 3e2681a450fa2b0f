/**
 * API-01 on the parts of an article and the genres of pages a news or company site serves
 * (test/fixtures/page-genres.ts): a lede, key points, fact box, caption, table, embedded post and
 * correction around the body; a live blog, an interview, a listicle, a press release, company and
 * landing pages, a job posting, a recipe, a help-center article, an event; in five languages.
 * Every main text is in the Markdown, the chrome (ads, "read also", CTAs, votes, consent banners)
 * is not, and the main text (with the `optional` parts found) makes up at least 90% of the words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';
import { parsePage } from '../src/services/web-to-markdown/dom.ts';
import { bodyOf, textOf } from '../src/services/web-to-markdown/dom-queries.ts';
import { bodyParagraphs } from '../src/services/web-to-markdown/fallback-blocks.ts';
import { measure } from '../src/services/web-to-markdown/measure.ts';
import { GENRE_PAGES } from './fixtures/page-genres.ts';
import { checkPages, norm } from './helpers/extract-pages.ts';

describe('article parts and page genres', () => {
  it('covers at least twelve pages, four of them in other languages than English', () => {
    assert.ok(GENRE_PAGES.length >= 12);
    assert.equal(new Set(GENRE_PAGES.map((p) => p.name)).size, GENRE_PAGES.length);
    assert.ok(GENRE_PAGES.filter((p) => !/<html lang="en"/.test(p.html)).length >= 4);
  });

  checkPages(GENRE_PAGES, 'https://x.test/2024/05/page', 'ads, related links, calls to action, widgets, footer and consent texts');
});

/** Prose for a test page's body: sentences long enough to score. */
const body = (n: number) =>
  Array.from({ length: n }, (_, i) => `<p>Paragraph ${i + 1} of the body tells how the council, the builders and the neighbours agreed on the plan, and what each of them did next.</p>`).join('');
const extract = (html: string) => norm(extractMarkdown({ html, url: 'https://x.test/a', includeLinks: false }).markdown);

describe('rules for article parts', () => {
  it('takes in a key-points list the <article> holds before the body, not a list of headline links there', () => {
    const points = '<ul><li>The first point of the summary is a full sentence about the plan.</li><li>The second point says who pays for it and when the work starts.</li></ul>';
    const links = '<ul><li><a href="/a">Earlier coverage of the same plan and its council vote</a></li><li><a href="/b">A second headline linking to another story on the site</a></li></ul>';
    const out = extract(`<html><body><main><article><header><h1>Plan agreed</h1></header><div class="key-points">${points}</div><div class="more">${links}</div><div class="article-body">${body(6)}</div></article></main></body></html>`);
    assert.ok(out.includes(norm('The second point says who pays for it')), out);
    assert.ok(!out.includes(norm('Earlier coverage of the same plan')), out);
  });

  it('does not take a list from outside an <article> (a page without one keeps its choice)', () => {
    const out = extract(`<html><body><div class="top"><ul><li>A teaser line that reads almost like a sentence of text here.</li><li>Another teaser line that reads almost like a sentence too.</li></ul></div><div class="article-body">${body(6)}</div></body></html>`);
    assert.ok(!out.includes(norm('A teaser line that reads')), out);
  });

  it('keeps an <aside> inside the <article> (a fact box, a side note) and one named as a fact box, drops a related-links aside, one with role complementary and the page sidebar', () => {
    const box = (attrs: string, text: string) => `<aside ${attrs}><h3>In numbers</h3><ul><li>${text} one: sixty-four metres in three spans</li><li>${text} two: fourteen months of building</li></ul></aside>`;
    const links = '<aside class="more"><h3>Read next</h3><ul><li><a href="/a">LINKS one: a headline of another story</a></li><li><a href="/b">LINKS two: a second headline of a story</a></li></ul></aside>';
    const out = extract(`<html><body><main><article><div class="article-body">${body(3)}${box('class="factbox"', 'FACT')}${box('', 'PLAIN')}${box('class="related-box"', 'RELATED')}${box('class="info-box" role="complementary"', 'ROLE')}${links}${body(3)}</div></article>${box('class="facts-and-figures"', 'NAMED')}</main>${box('', 'SIDEBAR')}</body></html>`);
    for (const kept of ['FACT two: fourteen months of building', 'PLAIN two: fourteen months of building']) assert.ok(out.includes(norm(kept)), `${kept} missing from ${out}`);
    for (const gone of ['RELATED two', 'ROLE two', 'LINKS two', 'SIDEBAR two']) assert.ok(!out.includes(norm(gone)), `${gone} in ${out}`);
  });
});

describe('rules for article parts: no repeats', () => {
  it('renders a key-points list once when its box is a sibling the choice takes in', () => {
    const points = '<ul><li>The first point of the summary is a full sentence about the plan, and why.</li><li>The second point says who pays for it and when the work starts, and where.</li></ul>';
    const md = extractMarkdown({ html: `<html><body><article><div class="story-text">${points}</div><div class="story-text">${body(6)}</div></article></body></html>`, url: 'https://x.test/a', includeLinks: false }).markdown;
    assert.equal(md.split('The second point says').length, 2, md);
  });
});

describe('rules for page genres', () => {
  it('leaves out links styled as buttons that stand alone, keeps such a link inside a sentence', () => {
    const md = extract(`<html><body><main><div class="story">${body(4)}<a class="btn btn--primary" href="/demo">Book a demo</a> <a class="button" href="/tools">See the tools</a>
<p>Read <a class="cta-link" href="/guide">the repair guide</a> before you open the case, and keep the screws in order.</p>${body(2)}</div></main></body></html>`);
    for (const gone of ['Book a demo', 'See the tools']) assert.ok(!md.includes(norm(gone)), `${gone} in ${md}`);
    assert.ok(md.includes(norm('Read the repair guide before you open the case')), md);
  });

  it('leaves out a call-to-action band (class word cta or call-to-action, with or without a BEM modifier), keeps a section whose class only holds the letters', () => {
    const band = (cls: string, text: string) => `<section class="${cls}"><h2>${text} heading</h2><p>${text}: book a thirty-minute demo with one of our makers, any weekday.</p></section>`;
    const md = extract(`<html><body><main><div class="story">${body(5)}${band('section section--cta', 'MODIFIER')}${band('cta-band', 'BAND')}${band('wprm-call-to-action wprm-call-to-action-simple', 'SPELLED')}${band('section section--compact', 'COMPACT')}${band('dictation-notes', 'DICTATION')}</div></main></body></html>`);
    for (const gone of ['MODIFIER heading', 'BAND heading', 'SPELLED heading']) assert.ok(!md.includes(norm(gone)), `${gone} in ${md}`);
    for (const kept of ['COMPACT heading', 'DICTATION heading']) assert.ok(md.includes(norm(kept)), `${kept} missing from ${md}`);
  });

  it('leaves out a form box with little text (an application form and its heading), keeps a brief inside a page-wide <form>', () => {
    const apply = '<div id="application"><div class="heading"><h2>Apply for this Job</h2><div class="required-fields">* Required</div></div><form><div class="field"><label>Name</label><input></div><div class="drop-zone">Drop files here</div></form></div>';
    const job = extract(`<html><body><div id="content">${body(4)}</div>${apply}</body></html>`);
    const inside = extract(`<html><body><div id="content">${body(4)}${apply}</div></body></html>`);
    for (const md of [job, inside]) for (const gone of ['Apply for this Job', 'Required', 'Drop files here']) assert.ok(!md.includes(norm(gone)), `${gone} in ${md}`);
    const brief = extract('<html><head><title>Hall closed</title></head><body><form id="aspnetForm" action="/default.aspx"><div class="article"><h1>Hall closed</h1><p>The village hall is closed on Monday for repairs to the roof, and reopens on Tuesday.</p></div></form></body></html>');
    assert.ok(brief.includes(norm('The village hall is closed on Monday')), brief);
  });

  it('keeps the text of a <button> inside a heading (an accordion question), drops other buttons', () => {
    const md = extract(`<html><body><main><div class="faq">${body(3)}<h2 class="accordion-header"><button class="accordion-button" type="button">How long does delivery take?</button></h2><div class="accordion-body">Most orders arrive within five working days of the order.</div><div class="more"><button type="button">Load more questions</button></div>${body(2)}</div></main></body></html>`);
    assert.ok(md.includes(norm('How long does delivery take?')), md);
    assert.ok(!md.includes(norm('Load more questions')), md);
  });

  it('the body-paragraph fallback takes a heading only when a paragraph after it is kept', () => {
    const page = parsePage('<html><body><section><h2>Who we are</h2><p>A small office that plans cycle routes for towns and villages.</p></section><section><h2>Elsewhere</h2><ul><li><a href="/a">Projects in the north of the region</a></li></ul></section><section><h2>How we work</h2><p>Every project starts with a week on the ground, riding the streets.</p></section></body></html>', 'lenient');
    const body = bodyOf(page.root);
    measure(body);
    assert.deepEqual(bodyParagraphs(body).map(textOf), ['Who we are', 'A small office that plans cycle routes for towns and villages.', 'How we work', 'Every project starts with a week on the ground, riding the streets.']);
  });

  it('leaves out a consent notice whose markup names no cookie (consent managers\' own ids), before or after a brief', () => {
    const brief = '<div class="story"><h1>Hall closed on Monday</h1><p>The village hall is closed on Monday for repairs to the roof and reopens on Tuesday morning.</p></div>';
    const banners = [
      '<div id="qc-cmp2-container" class="qc-cmp2-container"><div class="qc-cmp2-summary-info"><p>Nous et nos partenaires stockons et/ou accédons à des informations sur un appareil, telles que les cookies, et traitons les données personnelles, telles que les identifiants uniques.</p></div></div>',
      '<div id="sp_message_container_1234"><div class="message-component"><p>Wir und unsere Partner speichern und/oder greifen auf Informationen auf einem Gerät zu, wie zum Beispiel Cookies, und verarbeiten personenbezogene Daten.</p></div></div>',
      '<div id="didomi-host"><div class="didomi-popup-container"><p>Con tu consentimiento, nosotros y nuestros socios utilizamos cookies o tecnologías similares para almacenar y acceder a información personal como tu visita a esta web.</p></div></div>',
      '<div class="privacy-notice"><p>当サイトでは、サービス向上のためにCookieを利用しています。サイトを引き続き閲覧することで、Cookieの利用に同意したものとみなします。</p></div>',
      '<div class="notice-bar"><p>本网站使用Cookie来改善您的浏览体验。继续浏览本网站即表示您同意我们使用Cookie，详情请阅读我们的隐私政策。</p></div>',
    ];
    for (const b of banners) {
      for (const html of [`<html><head><title>Hall closed on Monday</title></head><body>${b}${brief}</body></html>`, `<html><head><title>Hall closed on Monday</title></head><body>${brief}${b}</body></html>`]) {
        const md = extract(html);
        assert.ok(md.includes(norm('The village hall is closed on Monday')), md);
        assert.ok(!/cookie/i.test(md), md);
      }
    }
  });

  it('keeps a recipe paragraph about storing the cookies', () => {
    const md = extract(`<html><body><div class="recipe">${body(3)}<p>Store the cookies in a tin for up to a week, and warm them in the oven before you serve them.</p></div></body></html>`);
    assert.ok(md.includes(norm('Store the cookies in a tin')), md);
  });

  it('the body-paragraph fallback of a short page leaves out furniture lines (a paywall prompt, a share label)', () => {
    const html = '<html><head><title>Hall closed</title></head><body><div class="a"><p>The village hall is closed on Monday for repairs to the roof, the parish council said.</p></div><div class="b"><p>It reopens on Tuesday morning, and the Wednesday choir practice goes ahead as planned.</p></div><div class="c"><p>Subscribe to continue reading. Get unlimited access to all our journalism for 1 euro in the first month.</p></div><div class="d"><p>Share this article</p></div></body></html>';
    const md = extract(html);
    assert.ok(md.includes(norm('It reopens on Tuesday morning')), md);
    for (const gone of ['Subscribe to continue reading', 'Share this article']) assert.ok(!md.includes(norm(gone)), `${gone} in ${md}`);
  });

  it('takes the page\'s <main> when the choice would hold it and little beside it: an announcement bar above the header stays out', () => {
    const sections = ['Scheduling', 'Payroll', 'Reports'].map((t) => `<section class="py-24"><h2>${t}</h2>${body(1).replace(/Paragraph 1/, t)}</section>`).join('');
    const md = extract(`<html><body><div class="flex min-h-full flex-col"><div class="bg-teal-700 text-sm"><p><strong>New:</strong> Rotaloom now integrates with BrightPay Connect.</p></div><header><nav><a href="/">Home</a></nav></header><main class="flex-auto">${sections}</main></div></body></html>`);
    for (const kept of ['Scheduling', 'Payroll', 'Reports']) assert.ok(md.includes(norm(kept)), `${kept} missing from ${md}`);
    assert.ok(!md.includes(norm('now integrates with BrightPay')), md);
  });

  it('leaves out a top bar (class word topbar or top-bar) above the page, keeps a block whose class only holds the letters', () => {
    const bar = (cls: string, text: string) => `<div class="${cls}"><div class="container"><span>${text}: new patients are very welcome at the practice.</span></div></div>`;
    const md = extract(`<html><body>${bar('bp-topbar', 'TOPBAR')}${bar('site-top-bar', 'TOPDASH')}<div id="content">${body(6)}${bar('desktopbar-note', 'DESKTOP')}</div></body></html>`);
    for (const gone of ['TOPBAR', 'TOPDASH']) assert.ok(!md.includes(norm(gone)), `${gone} in ${md}`);
    assert.ok(md.includes(norm('DESKTOP')), md);
  });

  it('keeps a grid of cards the text goes on after (a docs index), its headings and descriptions apart; drops a teaser grid at the end', () => {
    const card = (t: string) => `<article class="col col--4"><a class="card" href="/docs/${t.toLowerCase()}"><h3 class="cardTitle">${t}</h3><p class="cardDescription">The ${t.toLowerCase()} guide shows what you need to set it up for a whole team of people.</p></a></article>`;
    const grid = (ts: string[]) => `<section class="row list">${ts.map(card).join('')}</section>`;
    const html = (after: string) => `<html><body><nav><a href="/">Home</a></nav><main><article><div class="markdown"><header><h1>Docs</h1></header><p>Lanternfish is an open-source agent and aggregator for collecting, transforming and routing logs and metrics, written in Rust and designed to run anywhere.</p><p>These docs cover version 2.4; if you are running 1.x, start with the migration guide before changing any configuration.</p><h2>Get started</h2>${grid(['Install', 'Quickstart', 'Concepts'])}<h2>Guides</h2>${grid(['Pipelines', 'Testing', 'Helm'])}${after}</div></article></main></body></html>`;
    const docs = extract(html('<h2>Getting help</h2><p>If something in these docs is wrong or unclear, open an issue or ask in the forum, where maintainers answer every weekday.</p>'));
    for (const kept of ['Install The install guide', 'Concepts The concepts guide', 'Helm The helm guide']) assert.ok(docs.includes(norm(kept)), `${kept} missing from ${docs}`);
    const teasers = extract(html(`<h2>More stories</h2>${grid(['Budget', 'Bridge', 'Harbour'])}`));
    assert.ok(!teasers.includes(norm('harbour guide')), teasers);
  });

  it("keeps a code block in a highlighter's frame: identifiers linked to their docs (pkgdown), utility classes, Nextra's frame", () => {
    const intro = body(3);
    const linked = '<div class="sourceCode" id="cb1"><pre class="downlit sourceCode r"><code class="sourceCode R"><span class="fu"><a href="https://x.test/reference/read_obs.html">read_obs</a></span>(<span class="fu"><a href="https://x.test/reference/here.html">here</a></span>("hawthorn.csv"))</code></pre></div>';
    const tailwind = '<div class="w-0 min-w-full max-w-full py-3.5 px-4 overflow-x-auto h-full scrollbar-thin"><pre><code>import crypto from "node:crypto";\nexport const sign = (body) => crypto.createHash("sha256").update(body).digest("hex");</code></pre></div>';
    const nextra = '<div class="nextra-code-block nx-relative nx-mt-6"><pre data-language="toml"><code>[cache]\ndir = ".tidepool/cache"\nmax_size = "10GB"</code></pre></div>';
    const md = extractMarkdown({ html: `<html><body><main><h1>Guide</h1>${intro}${linked}<p>Then sign the body, which the receiving end checks with the same secret and the same hash.</p>${tailwind}${nextra}${body(1)}</main></body></html>`, url: 'https://x.test/a', includeLinks: false }).markdown;
    for (const kept of ['read_obs(here("hawthorn.csv"))', 'createHash("sha256")', 'max_size = "10GB"']) assert.ok(md.includes(kept), `${kept} missing from ${md}`);
  });

  it('keeps an office\'s phone number and e-mail address (tel: and mailto: links), drops a list of page links', () => {
    const office = (city: string) => `<div class="col-md-4"><div class="office-card"><h3>${city}</h3><p>Our ${city} office is on the second floor, next to the station, with step-free access.</p><ul class="list-unstyled small"><li><a href="tel:+311055501${city.length}">+31 10 555 01${city.length}</a></li><li><a href="mailto:${city.toLowerCase()}@x.example">${city.toLowerCase()}@x.example</a></li></ul><ul class="list-unstyled small"><li><a href="/${city}/jobs">Jobs</a></li><li><a href="/${city}/events">Events</a></li></ul></div></div>`;
    const md = extract(`<html><body><main><h1>Contact</h1>${body(2)}<div class="row">${office('Rotterdam')}${office('Manchester')}${office('Gdansk')}</div></main></body></html>`);
    for (const kept of ['rotterdam@x.example', '+31 10 555 019', 'gdansk@x.example']) assert.ok(md.includes(norm(kept)), `${kept} missing from ${md}`);
    assert.ok(!md.includes(norm('Events')), md);
  });

  it("writes an animated counter's final value (Elementor's data-to-value), not the 0 it starts from", () => {
    const counter = (to: string, title: string) => `<div class="elementor-counter"><div class="elementor-counter-number-wrapper"><span class="elementor-counter-number" data-duration="2000" data-to-value="${to}" data-from-value="0">0</span><span class="elementor-counter-number-suffix">+</span></div><div class="elementor-counter-title">${title}</div></div>`;
    const md = extract(`<html><body><main><h1>About us</h1>${body(3)}${counter('180', 'Engineers and technicians')}${counter('2,400', 'Projects completed')}<p class="lede">Visit us <span data-count="now">0</span> times.</p></main></body></html>`);
    for (const kept of ['180', '2 400 projects completed']) assert.ok(md.includes(norm(kept)), `${kept} missing from ${md}`);
  });

  it('keeps a currency sign a price card sets in a block of its own', () => {
    const card = (plan: string, price: string) => `<div class="pricing-card"><h3>${plan}</h3><p>For shops of the ${plan.toLowerCase()} size that send parcels every day.</p><div class="pricing-price-wrap"><div class="pricing-currency">£</div><div class="pricing-price">${price}</div><div class="pricing-period">/month</div></div></div>`;
    const md = extractMarkdown({ html: `<html><body><main><h1>Pricing</h1>${body(2)}${card('Starter', '19')}${card('Growth', '49')}</main></body></html>`, url: 'https://x.test/a', includeLinks: false }).markdown;
    assert.equal(md.split('£').length - 1, 2, md);
  });

  it("reads HubSpot's drag-and-drop wrappers (widget-span, hs_cos_wrapper_widget) as layout, not sidebar widgets", () => {
    const module = (id: string, inner: string) => `<div class="row-fluid-wrapper dnd-row"><div class="row-fluid"><div class="span12 widget-span widget-type-custom_widget dnd-module"><div id="hs_cos_wrapper_widget_${id}" class="hs_cos_wrapper hs_cos_wrapper_widget hs_cos_wrapper_type_module widget-type-rich_text"><span id="hs_cos_wrapper_widget_${id}_" class="hs_cos_wrapper hs_cos_wrapper_widget hs_cos_wrapper_type_rich_text">${inner}</span></div></div></div></div>`;
    const how = '<h2>How we work</h2><p>Our engineers, installers and advisers work in small mixed teams, so the person who writes the scheduler has stood in a loft next to the person who fits it.</p><p>We publish our pay bands and our carbon numbers internally every quarter, and if something goes wrong, we would rather everyone knows.</p>';
    const perks = '<h2>What you get</h2><ul>' + ['A salary benchmarked every April against published industry data, with bands shared openly.', 'Thirty days of holiday plus bank holidays, and an extra day off for your birthday.', 'Private medical cover for you and your family, including mental health support.', 'A personal learning budget of a thousand pounds, spent on whatever helps you grow.'].map((t) => `<li>${t}</li>`).join('') + '</ul>';
    const md = extract(`<html><body><header><nav><a href="/">Home</a></nav></header><main><div class="body-container">${module('1682967936092', how)}${module('1709398904115', perks)}</div></main></body></html>`);
    for (const kept of ['the person who writes the scheduler', 'Thirty days of holiday']) assert.ok(md.includes(norm(kept)), `${kept} missing from ${md}`);
  });

  it("keeps a list whose items each carry text beside an icon (a pricing card's ticks)", () => {
    const tick = '<img src="/check.svg" alt="" class="icon">';
    const card = (plan: string) => `<div class="pricing-card"><h3>${plan}</h3><p>For shops of the ${plan.toLowerCase()} size, billed monthly.</p><ul role="list">${['Labels per month for every carrier', 'Branded tracking page with your logo'].map((t) => `<li>${tick}<div>${t} (${plan})</div></li>`).join('')}</ul></div>`;
    const md = extract(`<html><body><main><h1>Pricing</h1>${body(2)}${card('Starter')}${card('Growth')}</main></body></html>`);
    for (const kept of ['Branded tracking page with your logo (Growth)', 'Labels per month for every carrier (Starter)']) assert.ok(md.includes(norm(kept)), `${kept} missing from ${md}`);
  });

  it("keeps a FAQ answer in Webflow's dropdown panel (<nav class=\"w-dropdown-list\">) and in a <nav> a toggle names, drops a menu's <nav>", () => {
    const faq = (q: string, a: string, i: number) => `<div class="faq-dropdown w-dropdown"><div class="w-dropdown-toggle" role="button" aria-expanded="false" aria-controls="w-dropdown-list-${i}"><div>${q}</div></div><nav class="faq-answer-wrap w-dropdown-list" id="w-dropdown-list-${i}"><p>${a}</p></nav></div>`;
    const named = '<button aria-expanded="false" aria-controls="refunds">Refunds?</button><nav id="refunds"><p>Refunds go back to the card you paid with within five working days.</p></nav>';
    const md = extract(`<html><body><nav><a href="/">Home</a><a href="/pricing">Pricing page link</a></nav><main><h1>Pricing questions</h1>${body(2)}${faq('What counts as a label?', 'A label is counted when it is printed or downloaded for the first time.', 1)}${faq('Can I cancel?', 'You can cancel at any time from the billing page of your account.', 2)}${named}</main></body></html>`);
    for (const kept of ['A label is counted when it is printed', 'You can cancel at any time', 'Refunds go back to the card']) assert.ok(md.includes(norm(kept)), `${kept} missing from ${md}`);
    assert.ok(!md.includes(norm('Pricing page link')), md);
  });
});

