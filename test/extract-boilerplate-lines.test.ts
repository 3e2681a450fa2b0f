/** API-01: short standalone datelines, newsletter prompts and follow-us lines leave the chosen content; look-alikes stay. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockLineText, boilerplateLineKind, furnitureBlock, isClosingNote, isConsentNotice, isExcerptList, isHeadlineList } from '../src/services/web-to-markdown/boilerplate-lines.ts';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';

const PROSE =
  'The committee met on Tuesday to discuss the new proposal, which had been drafted over several months by a group of volunteers. ' +
  'Members raised questions about the budget, the timeline, and the way progress would be measured once the work began in earnest.';

function article(inner: string): string {
  return `<html><head><title>Budget talks</title></head><body><nav><a href="/">Home</a></nav><article><h1>Budget talks resume</h1>${inner}</article><footer>Footer</footer></body></html>`;
}
const extract = (inner: string) => extractMarkdown({ html: article(inner), url: 'https://news.example.com/a', includeLinks: true }).markdown;

describe('boilerplateLineKind: what must go', () => {
  const go: [string, string][] = [
    ['Updated 1:39 am EST, Wednesday, November 20, 2019', 'dateline'],
    ['Posted: Fri 6:45 PM, Feb 16, 2018 |', 'dateline'],
    ['PUBLISHED: 10:48, Tue, Nov 19, 2019 | UPDATED: 11:05, Tue, Nov 19, 2019', 'dateline'],
    ['Last Updated : Nov 20, 2019 01:41 PM IST | Source: Moneycontrol.com', 'dateline'],
    ['First Published on Nov 20, 2019 01:38 pm', 'dateline'],
    ['Posted on Oktober 27, 2015 by Admin', 'dateline'],
    ['Veröffentlicht am 3. März 2021, 14:05 Uhr', 'dateline'],
    ['Publié le 13 mars 2017 à 10h30', 'dateline'],
    ['Actualizado el 4 de mayo de 2022', 'dateline'],
    ['Опубликовано: 12.03.2020 10:15', 'dateline'],
    ['发布时间：2019-11-20 08:30', 'dateline'],
    ['By LISA MASCARO, MARY CLARE JALONICK and ERIC TUCKER', 'byline'],
    ['By Louis Jacobson on Monday, November 18th, 2019 at 11:04 a.m.', 'byline'],
    ['by Jeff Foust — November 18, 2019', 'byline'],
    ['By HNN Staff | November 18, 2019 at 2:26 PM HST', 'byline'],
    ['Von Anna Müller und Jan de Vries', 'byline'],
    ['par Jean Dupont, publié le 20 novembre 2019', 'byline'],
    ['by ライトハウス国際特許事務所 ／ 2016.12.01', 'byline'],
    ['The protests kicked off in June and have strengthened in size (Image: GETTY )', 'credit'],
    ['The latest case was reported after a hunter ate a rabbitCredit: Getty - Contributor', 'credit'],
    ['Roughly 13,000 US troops remain in Afghanistan [File: Reuters]', 'credit'],
    ['Home Depot stock fell after the retailer reported earnings. Photograph by Robyn Beck/AFP/Getty Images', 'credit'],
    ['Ein Demonstrant vor dem Rathaus am Montag. Foto: Anna Schmidt', 'credit'],
    ['November 20, 2019 / 1:07 AM / CBS News', 'dateline'],
    ['on November 19, 2019, 6:21 AM EST', 'dateline'],
    ['Saturday, September 10th, 2005 10:56 am', 'dateline'],
    ['2005-06-14 03:25:55', 'dateline'],
    ['15.05.2020, 07:11 | Lesedauer: 8 Minuten', 'dateline'],
    ['Click here to subscribe to The Paradigm Newsletter', 'sign-up'],
    ['Get the latest updates right in your inbox. Subscribe to our newsletters.', 'sign-up'],
    ['Start your day with the Opening Bell. Sign up for the free daily newsletter.', 'sign-up'],
    ['Abonnieren Sie unseren Newsletter!', 'sign-up'],
    ['Inscrivez-vous à notre newsletter', 'sign-up'],
    ['Follow Newsbeat on Instagram, Facebook, Twitter and YouTube.', 'follow'],
    ['Have a tip? Email the author. Follow her on Twitter @someone or on Facebook.', 'follow'],
    ['Folgen Sie uns auf Facebook und Instagram', 'follow'],
    ['Advertisement', 'ad-label'],
    ['Anzeige', 'ad-label'],
    ['Publicité', 'ad-label'],
    ['- Publicidad -', 'ad-label'],
    ['広告', 'ad-label'],
    ['Story continues below advertisement', 'ad-label'],
    ['728x90', 'ad-label'],
    ['300 x 250', 'ad-label'],
    ['4.8 from 12 votes', 'rating'],
    ['4,5 sur 5 (8 avis)', 'rating'],
    ['Rated 4.5 out of 5 stars', 'rating'],
    ['4,7 von 5 Sternen (23 Bewertungen)', 'rating'],
    ['Was this page helpful?', 'helpful'],
    ['Was this article helpful? Yes No', 'helpful'],
    ['War dieser Artikel hilfreich?', 'helpful'],
    ['Cet article vous a-t-il été utile ?', 'helpful'],
    ['¿Te resultó útil este artículo?', 'helpful'],
    ['この記事は役に立ちましたか？', 'helpful'],
    ['这篇文章对您有帮助吗？', 'helpful'],
    ['Was this helpful?', 'helpful'],
    ['Did this help?', 'helpful'],
    ['Share this article', 'control'],
    ['Share this note', 'control'],
    ['Share this recipe', 'control'],
    ['Teilen Sie diesen Artikel', 'control'],
    ['Partager cet article', 'control'],
    ['Compartir en redes sociales', 'control'],
    ['5 min read', 'control'],
    ['Lesezeit: 3 Minuten', 'control'],
    ['Temps de lecture : 3 min', 'control'],
    ['読了時間：約3分', 'control'],
    ['Listen to this article', 'control'],
    ['Artikel anhören', 'control'],
    ['Nach oben', 'control'],
    ['ページの先頭へ戻る', 'control'],
    ['返回顶部', 'control'],
    ['Image 1 of 8', 'control'],
    ['Image 1 of / 8', 'control'],
    ['1 / 8', 'control'],
    ['Foto 3 von 12', 'control'],
    ['Back to Gallery', 'control'],
    ['Hide Caption', 'control'],
    ['Close', 'control'],
    ['Next', 'control'],
    ['Subscribe to continue reading. Get unlimited access for 1 euro in the first month.', 'prompt'],
    ['Dieser Artikel ist nur für Abonnenten verfügbar. Jetzt testen und weiterlesen.', 'prompt'],
    ['Cet article est réservé aux abonnés. Abonnez-vous pour lire la suite.', 'prompt'],
    ['Descarga nuestra app gratuita para leer las noticias del día.', 'prompt'],
    ['この記事が気に入ったらチップで応援してみませんか？', 'prompt'],
    ['3 Likes', 'count'],
    ['1.2K views', 'count'],
    ['14 replies', 'count'],
    ['5 Kommentare', 'count'],
    ['sponsored links', 'ad-label'],
    ['입력 2019.11.20 10:00', 'dateline'],
    ['Opublikowano: 20.11.2019, 10:15', 'dateline'],
    ['Uppdaterad 2019-11-20 10:15', 'dateline'],
    ['Delen', 'control'],
    ['Udostępnij', 'control'],
    ['Поделиться', 'control'],
    ['Naar boven', 'control'],
    ['Przejdź do treści', 'control'],
    ['본문 바로가기', 'control'],
    ['Skip to content', 'control'],
    ['Zum Inhalt springen', 'control'],
    ['小字号', 'control'],
    ['字号：大 中 小', 'control'],
    ['2022年02月13日07:48 | 来源：新华日报', 'dateline'],
    ['Tags: Alibaba, Retail, China', 'tags'],
    ['Filed under: Politics |', 'tags'],
    ['Schlagwörter: Berlin, Verkehr', 'tags'],
    ['87 of 102 found this helpful', 'helpful'],
    ['Este artigo foi útil para você?', 'helpful'],
    ['Click to expand...', 'control'],
    ['Loading...', 'control'],
    ['Wird geladen …', 'control'],
    ['Suggest Edits', 'control'],
    ['You must log in or register to reply here.', 'prompt'],
    ['Log In to comment on this issue.', 'prompt'],
    ['This site is best viewed in a modern browser with JavaScript enabled.', 'prompt'],
    ['You need to enable JavaScript to run this app.', 'prompt'],
    ['Your browser does not support the video tag.', 'prompt'],
    ['Bitte aktivieren Sie JavaScript, um diese Seite zu nutzen.', 'prompt'],
    ['Updated 3 months ago', 'dateline'],
    ['equipment/laser_cutter.txt · Last modified: 2024/02/25 19:12 by hwatanabe', 'dateline'],
    ['This page was last edited on 3 March 2024, at 10:15', 'dateline'],
  ];
  for (const [line, kind] of go) it(`${kind}: ${line}`, () => assert.equal(boilerplateLineKind(line), kind));
});

describe('boilerplateLineKind: look-alikes that stay', () => {
  const stay = [
    'Published in 1851, Moby-Dick was a commercial failure.',
    'The council found this helpful in 2020.',
    'Click to expand the menu and choose the option.',
    'Log in to the portal with your staff account first.',
    'Updated 3 months ago, the map still shows the old line.',
    'The file was last modified in 2024 by the team. It still runs.',
    'Close to 8 of 10 voters said the same.',
    'Next year the gallery will reopen.',
    'Step 1 of 3',
    'Updated November 3: the council voted to delay the plan.',
    'Posted guards stood at every gate of the compound until dawn.',
    'By Monday, the team had finished the audit.',
    'By 2030 Emissions Fall',
    'By November Most Trees Are Bare',
    'By the time we arrived it was dark',
    'By Jane Doe: what we learned',
    'The photo: a crowd at the gate, taken in 1968, became famous.',
    'Main image credit: Getty',
    'Image Source: Neil Godwin / Future Publishing/Shutterstock',
    'Foto: Michael Rauhe',
    'He took the photo by himself and sent it to the paper.',
    '29 November 2018 | 20 January 2019',
    'November 20, 2019 at 1:07 am was when the vote failed',
    '2019.03.05',
    'Sign up for a Hulu ad-free account for $11.99 a month',
    'You can also subscribe to this newsletter here.',
    'The newsletter, which 40,000 people subscribe to, was shut down in May.',
    'Investors who follow the company on Twitter saw the post first, and the shares fell 4%.',
    'We will follow up on Facebook’s response next week.',
    'Advertisement revenue fell by a tenth in the third quarter.',
    'Anzeige erstattet',
    '1920x1080',
    'この記事が書かれたのは三年前のことです。',
    '3 out of 4',
    'Share prices fell by a tenth after the announcement.',
    'The reading time of the report is estimated at 3 hours.',
    'The paper said the article was only for subscribers until Friday.',
    'Listen to this: the council has finally agreed.',
    'Nach oben führt nur eine schmale Treppe aus Holz.',
    '4 out of 5 households now recycle their glass, up from 3 in 2015.',
    'Was this page helpful to the council when it drafted the plan? The minutes do not say.',
    '3 likes and a dislike',
    '2 Answers',
    'Topics: the council discussed the budget and the new school.',
    'Keywords: e-commerce; logistics; distribution',
    '2022年02月13日，市政府发布了新的交通规划。',
    'Skip to content if you have read the introduction.',
    'Dela upp arbetet i tre steg.',
    'Delen van het werk zijn klaar.',
    '40 votes were counted before noon.',
    'JavaScript is a language that runs in every browser.',
    'Enabling JavaScript in the build step took the team a week.',
    'Updated 1:39 am EST, Wednesday, November 20, 2019. ' + 'The storm moved east overnight and closed roads across three counties. '.repeat(3),
  ];
  for (const line of stay) it(line.slice(0, 70), () => assert.equal(boilerplateLineKind(line), null));
  it('a heading that names advertising (a section of a company page)', () => assert.equal(boilerplateLineKind('Advertising', true), null));
});

describe('blockLineText', () => {
  it('reads a heading, emphasis, escapes and links as plain text', () => {
    assert.equal(blockLineText('## **Click here to [subscribe](https://x.example/s) to The Paradigm Newsletter**'), 'Click here to subscribe to The Paradigm Newsletter');
    assert.equal(blockLineText('\\- updated: Nov 20 2019, 13:42'), '- updated: Nov 20 2019, 13:42');
  });
  it('leaves blocks of several lines (lists, tables, quotes) alone', () => assert.equal(blockLineText('- Updated 2019\n- Posted 2020'), null));
});

describe('extraction drops the lines, keeps the prose around them', () => {
  const md = extract(`<p class="dateline">Updated 1:39 am EST, Wednesday, November 20, 2019</p><p>${PROSE}</p>
    <p>Published in 1851, Moby-Dick was a commercial failure.</p><p>${PROSE}</p>
    <p><strong>Sign up for the free daily newsletter.</strong></p><p><em>Follow us on <a href="https://twitter.com/x">Twitter</a> and Facebook.</em></p>`);
  it('drops the dateline, the newsletter prompt and the follow line', () => {
    assert.doesNotMatch(md, /Updated 1:39/);
    assert.doesNotMatch(md, /newsletter/);
    assert.doesNotMatch(md, /Follow us/);
  });
  it('keeps the article and the look-alike sentence', () => {
    assert.match(md, /The committee met on Tuesday/);
    assert.match(md, /Published in 1851, Moby-Dick/);
  });
  it('drops a byline paragraph but keeps a byline-like heading', () => {
    const md4 = extract(`<p>By Jane Doe and John Roe</p><h2>By The Numbers</h2><p>${PROSE}</p>`);
    assert.doesNotMatch(md4, /Jane Doe/);
    assert.match(md4, /## By The Numbers/);
  });
  it('keeps a dateline inside a paragraph of prose', () => {
    const md2 = extract(`<p>Updated 1:39 am EST, Wednesday, November 20, 2019: ${PROSE}</p>`);
    assert.match(md2, /Updated 1:39 am EST/);
  });
  it('keeps such lines inside a multi-item list', () => {
    const md3 = extract(`<p>${PROSE}</p><ul><li>Updated 1:39 am EST, November 20, 2019</li><li>Posted 6:45 PM, Feb 16, 2018</li></ul>`);
    assert.match(md3, /Updated 1:39 am EST/);
  });
});

describe('related-links labels and headline lists', () => {
  const labels = ['Related stories', 'You may also like...', 'More Great WIRED Stories', 'Related post: Pickled Brussels Sprouts Recipe', 'Lesen Sie auch:', 'À lire aussi', '推荐阅读', '関連記事', 'Most Read', "Don't Miss", 'Top stories', 'Les plus lus', '人気記事', 'Latest news', 'Czytaj także', 'Läs också', '관련기사', 'По теме'];
  for (const l of labels) it(`label: ${l}`, () => assert.equal(furnitureBlock(l), 'label'));
  const prose = ['Also on Tuesday, the court ruled against the city.', 'More on that later in the week, the minister said.', 'Related research was published in 2018 by a team in Oslo.', 'Read more widely than your own field, she advised her students, and the advice stuck.', 'Recommended dose: 5 mg twice a day, with food, for adults over 60 and for children never.', 'Most read the report twice before the vote.', 'Top stories of the year were chosen by readers.', 'Latest news of the talks came late on Friday.'];
  for (const l of prose) it(`not a label: ${l.slice(0, 50)}`, () => assert.notEqual(furnitureBlock(l), 'label'));
  it('a list of three or more long items each cut off with an ellipsis is a list of excerpts; quotations that some trail off are not', () => {
    const item = (n: number, end: string) => `- Headline ${n} of another story NEW DELHI: The minister said on Wednesday that the plan would${end}`;
    assert.equal(isExcerptList([1, 2, 3].map((n) => item(n, '...')).join('\n')), true);
    assert.equal(isExcerptList([1, 2, 3].map((n) => item(n, ' go ahead…')).join('\n')), true);
    assert.equal(isExcerptList([1, 2].map((n) => item(n, '...')).join('\n')), false, 'two items');
    assert.equal(isExcerptList([item(1, '...'), item(2, ' go ahead.'), item(3, '...')].join('\n')), false, 'one item ends as a sentence');
    assert.equal(isExcerptList('- Wait...\n- And then...\n- Nothing...'), false, 'short items');
  });

  it('a list of bare headings is a headline list; a list of headings with text is not', () => {
    assert.equal(isHeadlineList('- #### Young people must be heard: UN envoy\n- #### Talks resume'), true);
    assert.equal(isHeadlineList('- #### Step one\n  Mix the flour and the water.'), false);
    assert.equal(isHeadlineList('- Item one\n- Item two'), false);
  });
  const md = extract(`<p>${PROSE}</p><ul><li><h4><a href="/x">Young people must be heard: UN envoy</a></h4></li></ul><p>${PROSE.replace('committee', 'council')}</p>
    <p>More Great Example Stories</p><ul><li>The strange life of a coder</li><li>How the First Amendment works backward</li></ul>`);
  it('drops the label, the list after it and the headline list, keeps the prose', () => {
    assert.doesNotMatch(md, /More Great|strange life|UN envoy/);
    assert.match(md, /The committee met/);
    assert.match(md, /The council met/);
  });
  it('keeps a list after a paragraph that is not a label', () => {
    const md2 = extract(`<p>${PROSE}</p><p>The three steps were:</p><ul><li>Mix the flour</li><li>Add the water</li></ul>`);
    assert.match(md2, /Mix the flour/);
  });
});

describe('author and copyright notes at the end of the content', () => {
  const notes = [
    'Keith Bradsher contributed reporting from Hong Kong.',
    '*Fox News’ Jessica Napoli contributed to this report.*',
    'Phil Helsel is a reporter for NBC News.',
    'Jeff Foust (jeff@example.com) is the editor and publisher of The Space Review.',
    '**Write to** Al Root at allen.root@example.com',
    'Amy Kuperinsky may be reached at amy@example.com.',
    'Copyright 2004 River Society. All rights reserved.',
    '*© 2024 Example Media GmbH*',
    'CopyRight@2004-2008 All rights reserved',
    'Copyright ⓒ Example.co.kr. 무단전재 및 재배포 금지',
    '© 2023 Exemple SA. Tous droits réservés.',
    'Jana Müller ist Redakteurin im Ressort Stadt.',
    'Jana Müller ist seit 2015 Korrespondentin in Paris.',
    'Marie Dupont est journaliste au service politique.',
    'Ana García es periodista y cubre la información municipal.',
    'Luca Bianchi è giornalista e scrive di trasporti.',
    'Sanne de Vries is verslaggever bij de stadsredactie.',
    'João Silva é jornalista e cobre política.',
  ];
  for (const n of notes) it(`note: ${n.slice(0, 60)}`, () => assert.equal(isClosingNote(n), true));
  const prose = [
    'Write to your representative before Friday, the group urged its members.',
    'The report, to which dozens of scientists contributed, runs to 400 pages.',
    'She is a firm believer in open data and has said so for years.',
    '## Phil Helsel is a reporter for NBC News',
    '© Reuters',
    '*Installation views, photos © Jane Doe, 2018*',
    'The band lost the copyright to its first album in a 1998 lawsuit.',
    'Sein Vater ist Journalist.',
    'Die Stadt ist Autorin ihres eigenen Unglücks, sagt der Bürgermeister.',
    'Le maire est journaliste de formation.',
    'Sie ist keine Reporterin, sondern Anwältin.',
    'Pedro Costa não é jornalista, é advogado.',
  ];
  for (const n of prose) it(`not a note: ${n.slice(0, 60)}`, () => assert.equal(isClosingNote(n), false));
  it('drops a note among the last blocks, keeps the same sentence earlier in the article', () => {
    const md = extract(`<p>Jane Roe is a reporter for the Daily Example.</p><p>${PROSE}</p><p>${PROSE.replace('committee', 'council')}</p><p>${PROSE.replace('committee', 'board')}</p><p>${PROSE.replace('committee', 'panel')}</p><p>${PROSE.replace('committee', 'jury')}</p><p>John Doe contributed reporting from Paris.</p>`);
    assert.match(md, /Jane Roe is a reporter/);
    assert.doesNotMatch(md, /John Doe contributed/);
    assert.match(md, /The jury met/);
  });
});

describe('isConsentNotice', () => {
  const notices = [
    'Nous et nos partenaires stockons et/ou accédons à des informations sur un appareil, telles que les cookies, et traitons les données personnelles.',
    'Wir und unsere Partner speichern und/oder greifen auf Informationen auf einem Gerät zu, wie zum Beispiel Cookies, und verarbeiten personenbezogene Daten.',
    'Con tu consentimiento, nosotros y nuestros socios utilizamos cookies o tecnologías similares para almacenar y acceder a información personal.',
    'This website uses cookies to ensure you get the best experience on our website.',
    '当サイトでは、サービス向上のためにCookieを利用しています。サイトを引き続き閲覧することで、Cookieの利用に同意したものとみなします。',
    '本网站使用Cookie来改善您的浏览体验。继续浏览本网站即表示您同意我们使用Cookie。',
    'Deze website gebruikt cookies om uw ervaring te verbeteren.',
    'Ta strona używa plików cookies w celach statystycznych.',
    'Vi använder cookies på vår webbplats för att förbättra din upplevelse.',
    'Этот сайт использует файлы cookie для улучшения работы.',
  ];
  for (const t of notices) it(`notice: ${t.slice(0, 60)}`, () => assert.equal(isConsentNotice(t), true));
  const prose = [
    'Store the cookies in a tin for up to a week, and warm them in the oven before you serve them.',
    'We use brown butter in these cookies because it gives them a deeper, nuttier taste.',
    'The court ruled that the regulator may fine websites that set tracking cookies, and the fines could reach four per cent of turnover. '.repeat(5),
    'The café accepted our offer to sell cookies at the school fair.',
  ];
  for (const t of prose) it(`not a notice: ${t.slice(0, 60)}`, () => assert.equal(isConsentNotice(t), false));
});


describe('blocks said twice', () => {
  it('a short block said twice in a row is said once; the same words apart stay twice', () => {
    const caption = 'CAPTION Former Governor Jane Doe, left, speaks with a business owner during a campaign stop on Tuesday.';
    const md = extract(`<div><div>${caption}</div><div>${caption}</div></div><p>${PROSE}</p><p>QUESTION: What did the committee decide?</p><p>${PROSE}</p><p>QUESTION: What did the committee decide?</p>`);
    assert.equal(md.split('CAPTION').length - 1, 1);
    assert.equal(md.split('QUESTION').length - 1, 2);
  });
});

describe('horizontal rules', () => {
  it('keeps a rule between blocks, drops one that closes the content or follows another', () => {
    const md = extract(`<p>${PROSE}</p><hr><hr><p>${PROSE.replace('committee', 'council')}</p><hr>`);
    assert.equal(md.match(/^---$/gm)?.length, 1);
    assert.match(md, /committee[^]*\n\n---\n\n[^]*council/);
    assert.doesNotMatch(md, /---\s*$/);
  });
});

describe('link lists inside the article', () => {
  const para = (s: string) => `<p>${s} said the outbreak was isolated and that the other people quarantined with the man showed no signs of illness.</p>`;
  const dontMiss = '<p><strong>DON\'T MISS</strong><br><strong><a href="/a">Warning as agency names eight deadly diseases</a> [WARNING]</strong><br><strong><a href="/b">Holidaymakers fall ill after eating marmot</a> [INSIGHT]</strong><br><strong><a href="/c">Plane passengers quarantined after outbreak</a> [NEWS]</strong></p>';
  it('a block of paragraphs that ends in a "Don\'t miss" list keeps its paragraphs, the list goes', () => {
    const md = extract(`<div>${para('The first official')}${para('A second official')}</div><div>${para('The deputy director')}${para('A doctor')}${dontMiss}</div><div>${para('The last official')}</div>`);
    assert.match(md, /The deputy director said/);
    assert.match(md, /A doctor said/);
    assert.doesNotMatch(md, /marmot/);
  });
  it('a card of one sentence with a linked name stays, a teaser card of headline and summary goes', () => {
    const card = (inner: string) => `<div><div>${inner}</div></div>`;
    const md = extract(
      card(`<p>${PROSE}</p>`) +
        card('<p>The discovery was announced in an article published Monday in the <a href="https://journal.example/a1">journal Nature Astronomy</a>.</p>') +
        card('<a href="/story/9"><h4>Council approves the new library budget after long debate</h4></a><p>The vote ended a year of talks.</p>') +
        card(`<p>${PROSE.replace('committee', 'council')}</p>`),
    );
    assert.match(md, /published Monday in the \[journal Nature Astronomy\]/);
    assert.doesNotMatch(md, /after long debate/);
  });
  it('a long paragraph full of inline links that reads as a sentence stays', () => {
    const p = '<p>A man pleaded guilty to charges he threatened to kill <a href="/r">Rep. Jane Roe</a><a href="/x">Jane Roe on the budget deal</a><a href="/y">Senators call for a new coordinator</a><a href="/z">Hearing on the bill set for Monday</a>, the attorney\'s office for the western district announced on Monday.</p>';
    const md = extract(`${p}<p>${PROSE}</p><p>${PROSE.replace('committee', 'council')}</p>`);
    assert.match(md, /pleaded guilty/);
  });
});
