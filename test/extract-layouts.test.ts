/**
 * API-01 on 270 handmade pages that imitate the markup of CMSs, page builders, docs generators and
 * news sites (test/fixtures/layouts/README.md): per page, the main sentences found must not fall
 * under the floor below and the boilerplate phrases kept must not rise over the ceiling. The
 * floors are today's results; a page under its expected count is a known miss, named beside it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { decodeBody } from '../src/fetch/charset.ts';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';

const DIR = new URL('./fixtures/layouts/', import.meta.url);
const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** Page number → [main sentences found at least, boilerplate phrases kept at most]. */
const LIMITS: Record<string, readonly [number, number]> = {
  '01': [10, 0], '02': [5, 2], '03': [14, 0], '04': [8, 0], '05': [5, 0], '06': [5, 3], '07': [10, 0], '08': [5, 0],
  '09': [9, 0], '10': [9, 0], '11': [8, 3],
  // Known misses: a "read more" tail hidden with aria-hidden, a tail inside <template>.
  '12': [9, 0], '13': [2, 0], '14': [3, 0],
  '15': [11, 0], '16': [11, 0], '17': [7, 0], '18': [6, 0], '19': [12, 0], '20': [6, 0], '21': [7, 0], '22': [7, 0],
  '23': [9, 2], '24': [5, 0], '25': [5, 2], '26': [5, 0], '27': [3, 0], '28': [7, 0], '29': [10, 1], '30': [6, 0],
  '31': [8, 0], '32': [4, 0], '33': [8, 0], '34': [12, 0],
  '35': [12, 0], '36': [12, 0], '37': [10, 0], '38': [16, 0], '39': [15, 0], '40': [11, 0], '41': [6, 0], '42': [13, 0],
  '43': [13, 0], '44': [13, 0], '45': [14, 0], '46': [14, 0], '47': [13, 0], '48': [10, 0], '49': [10, 0], '50': [9, 0],
  '51': [11, 1], '52': [8, 0], '53': [16, 0],
  // Known misses: a key-facts box in the narrow column of a grid (left out with the column), a
  // review's verdict box of pros and cons before the body (59), a lead in the header block (66).
  '54': [8, 0], '55': [7, 0], '56': [13, 0], '57': [13, 0], '58': [19, 1], '59': [11, 0], '60': [18, 0], '61': [19, 1],
  '62': [6, 1], '63': [8, 0], '64': [4, 0], '65': [6, 2], '66': [7, 0], '67': [9, 0], '68': [7, 0], '69': [5, 0],
  '70': [19, 0], '71': [13, 0], '72': [16, 0], '73': [7, 0],
  // Pages 74-103, held out: written after the fixes above, scored before their own. Known misses:
  // leads and subheadlines in a header block beside the body (90, 92, 101, and the post headlines
  // in a liveblog's headers, 94), the reference of the development pages leaves such a lead out;
  // image captions outside the body or in blocks named `caption` (78, 81, 82, 88, 90, 92, 96, 98).
  '74': [14, 0], '75': [13, 0], '76': [10, 0], '77': [11, 0], '78': [8, 0], '79': [12, 0], '80': [14, 0], '81': [9, 0],
  '82': [10, 0], '83': [9, 0], '84': [10, 1], '85': [10, 0], '86': [11, 1], '87': [11, 0], '88': [11, 0], '89': [10, 0],
  '90': [9, 0], '91': [16, 0], '92': [9, 0], '93': [16, 0], '94': [12, 1], '95': [12, 0], '96': [10, 0], '97': [9, 1],
  '98': [10, 0], '99': [14, 0], '100': [13, 1], '101': [9, 0], '102': [12, 0], '103': [13, 0],
  // Pages 104-133, held out the same way (336/360 found, 287/318 kept out before their fixes: a
  // tab list that holds its panels, shop reviews, Tumblr notes). Known misses: module boxes of a
  // DNN table skin named like the content pane (111), the second half of an article shown only in
  // <noscript> of a lazy section (113), captions (110, 120, 130, 131, 133).
  '104': [13, 1], '105': [13, 0], '106': [14, 2], '107': [13, 0], '108': [8, 0], '109': [12, 0], '110': [11, 0], '111': [13, 3],
  '112': [9, 0], '113': [6, 0], '114': [12, 0], '115': [15, 0], '116': [12, 0], '117': [11, 2], '118': [8, 0], '119': [10, 1],
  '120': [10, 0], '121': [13, 0], '122': [15, 0], '123': [11, 0], '124': [14, 0], '125': [12, 0], '126': [10, 0], '127': [14, 1],
  '128': [12, 0], '129': [11, 0], '130': [12, 1], '131': [11, 0], '132': [11, 0], '133': [10, 0],
  // Pages 134-163, held out the same way (293/301 found, 267/279 kept out before their fix: an
  // article an infinite scroll appended, 163; the question of a Q&A page whose answers were
  // chosen, 156). Known misses: a <noscript> fallback holding a chart's figures (145), captions
  // (139, 146, 157), an affiliate notice (134), a citation appendix inside <main> (147), a
  // page builder's call-to-action section (154), a live blog's entry heading (160).
  '134': [12, 1], '135': [11, 0], '136': [10, 0], '137': [12, 0], '138': [10, 0], '139': [10, 1], '140': [10, 0], '141': [12, 0],
  '142': [8, 0], '143': [11, 0], '144': [11, 0], '145': [9, 0], '146': [8, 0], '147': [8, 2], '148': [9, 0], '149': [9, 1],
  '150': [10, 0], '151': [10, 0], '152': [10, 0], '153': [9, 0], '154': [11, 3], '155': [12, 0], '156': [11, 0], '157': [8, 0],
  '158': [10, 0], '159': [10, 0], '160': [10, 0], '161': [8, 0], '162': [9, 0], '163': [8, 0],
  // Pages 164-175, held out the same way: text where extractors fail (one <form> around the page,
  // <br> paragraphs in a table layout, hashed class names, a glossary <dl>, steps in an <ol>, a
  // shadow root, short sections, a poem in <pre>, a short brief in long chrome, an <aside> named
  // content and an article only in an <iframe srcdoc>, both short before their fixes). Each
  // page's title is among its expected lines, and the Markdown leaves out the title it returns
  // apart (167, 170, 171, 174, 175).
  '164': [7, 0], '165': [7, 0], '166': [6, 0], '167': [7, 0], '168': [10, 0], '169': [7, 0], '170': [6, 0], '171': [7, 0],
  '172': [8, 0], '173': [7, 0], '174': [6, 0], '175': [6, 0],
  // Pages 176-205, held out the same way (before their fixes 251/269 found, 241/251 kept out, one
  // short: a Wiki.js page whose article is in <template slot="contents">, and a script-rendered
  // page with its article only in JSON-LD).
  '176': [9, 0], '177': [10, 0], '178': [9, 0], '179': [8, 0], '180': [8, 0], '181': [10, 0], '182': [9, 0], '183': [8, 0],
  '184': [9, 0], '185': [9, 0], '186': [9, 0], '187': [9, 0], '188': [9, 0], '189': [10, 0], '190': [9, 0], '191': [9, 0],
  '192': [9, 0], '193': [9, 0], '194': [9, 0], '195': [10, 0], '196': [9, 0], '197': [11, 0], '198': [8, 0], '199': [9, 0],
  '200': [8, 0], '201': [8, 0], '202': [8, 0], '203': [8, 0], '204': [9, 0], '205': [10, 0],
  // Pages 206-225, company and organisation pages whose text is spread over sections, held out
  // the same way (before their fixes 177/203 found, 135/138 kept out). Known misses: a careers
  // page's roles as linked cards (210) and a press listing's summaries
  // (222), read as teaser cards; a call to action counted as text (213).
  '206': [12, 0], '207': [10, 0], '208': [11, 0], '209': [11, 0], '210': [7, 0], '211': [10, 0], '212': [10, 0], '213': [8, 0],
  '214': [10, 0], '215': [10, 0], '216': [10, 0], '217': [10, 0], '218': [11, 0], '219': [11, 0], '220': [9, 0], '221': [10, 0],
  '222': [6, 0], '223': [9, 0], '224': [8, 0], '225': [10, 0],
  // Pages 226-250, news and articles of other systems and languages, held out the same way
  // (before their fixes 263/271 found, 195/201 kept out). Known misses: the part of a paywalled
  // article hidden with aria-hidden (245), photo captions (246), a most-read box and footer of a
  // table layout widened to the row (234), a follow prompt in Tamil (242).
  '226': [11, 0], '227': [11, 0], '228': [11, 0], '229': [12, 0], '230': [12, 0], '231': [12, 0], '232': [11, 0], '233': [10, 0],
  '234': [10, 2], '235': [11, 0], '236': [11, 0], '237': [10, 0], '238': [12, 0], '239': [11, 0], '240': [11, 0], '241': [9, 0],
  '242': [10, 1], '243': [11, 1], '244': [12, 0], '245': [6, 2], '246': [10, 0], '247': [8, 0], '248': [10, 0], '249': [12, 0],
  '250': [13, 0],
  // Pages 251-270, company pages of page builders, held out the same way (before their fixes
  // 178/248 found, 157/161 kept out, one short). Known misses: service cards whose whole face links
  // to the service's page (252, 257), an Elementor page without <main> whose FAQ answer outweighs
  // its sections (265), a GoDaddy menu in a grid without <main> (266), tabs hidden by class (267),
  // a Shopify collection's description in a section named banner (258), hero lines (255).
  '251': [12, 0], '252': [6, 0], '253': [13, 0], '254': [13, 0], '255': [12, 0], '256': [12, 0], '257': [9, 0], '258': [6, 0],
  '259': [12, 0], '260': [9, 0], '261': [12, 0], '262': [12, 0], '263': [14, 0], '264': [13, 1], '265': [2, 0], '266': [6, 0],
  '267': [7, 1], '268': [13, 0], '269': [12, 1], '270': [13, 0],
};

describe('API-01 on handmade page layouts', () => {
  const pages = readdirSync(DIR).filter((f) => /^\d{2,3}-.*\.html$/.test(f)).sort((a, b) => parseInt(a, 10) - parseInt(b, 10));

  it('has a floor for every page', () => {
    assert.equal(pages.length, 270);
    for (const f of pages) assert.ok(LIMITS[f.slice(0, f.indexOf('-'))] !== undefined, f);
  });

  for (const f of pages) {
    it(f, () => {
      const [mainPart = '', boilPart = ''] = readFileSync(new URL(f.replace(/\.html$/, '.expected.txt'), DIR), 'utf8').split(/^---$/m);
      const lines = (s: string) => s.split('\n').map((l) => l.trim()).filter(Boolean);
      const { text } = decodeBody(new Uint8Array(readFileSync(new URL(f, DIR))), null, true);
      const out = norm(extractMarkdown({ html: text, url: 'https://example.test/2024/05/post', includeLinks: false }).markdown);
      const missing = lines(mainPart).filter((s) => !out.includes(norm(s)));
      const kept = lines(boilPart).filter((s) => out.includes(norm(s)));
      const [floor, ceiling] = LIMITS[f.slice(0, f.indexOf('-'))]!;
      assert.ok(lines(mainPart).length - missing.length >= floor, `main text missing:\n${missing.join('\n')}`);
      assert.ok(kept.length <= ceiling, `boilerplate kept:\n${kept.join('\n')}`);
    });
  }
});
