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
import { GENRE_PAGES } from './fixtures/page-genres.ts';

/** Letters and digits only, lower-cased: Markdown markers and escapes do not matter. */
const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
/** Words; Han and kana count one per character, as the evaluation counts them. */
const words = (s: string) => {
  const n = norm(s);
  if (n === '') return 0;
  const cjk = n.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0;
  const rest = n.replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu, ' ').trim();
  return cjk + (rest === '' ? 0 : rest.split(/\s+/).length);
};

describe('article parts and page genres', () => {
  it('covers at least twelve pages, four of them in other languages than English', () => {
    assert.ok(GENRE_PAGES.length >= 12);
    assert.equal(new Set(GENRE_PAGES.map((p) => p.name)).size, GENRE_PAGES.length);
    assert.ok(GENRE_PAGES.filter((p) => !/<html lang="en"/.test(p.html)).length >= 4);
  });

  for (const page of GENRE_PAGES) {
    describe(page.name, () => {
      const md = extractMarkdown({ html: page.html, url: 'https://x.test/2024/05/page', includeLinks: false }).markdown;
      const out = norm(md);

      it('keeps every main text', () => {
        const missing = page.main.filter((t) => !out.includes(norm(t)));
        assert.deepEqual(missing, [], `missing from:\n${md}`);
      });

      it('leaves out ads, related links, calls to action, widgets, footer and consent texts', () => {
        const leaked = page.chrome.filter((t) => out.includes(norm(t)));
        assert.deepEqual(leaked, [], `leaked into:\n${md}`);
      });

      it('is made of the main text (>= 90% of its words)', () => {
        const mainWords = [...page.main, ...(page.optional ?? []).filter((t) => out.includes(norm(t)))].reduce((n, t) => n + words(t), 0);
        assert.ok(words(md) > 0, 'output is empty');
        assert.ok(mainWords / words(md) >= 0.9, `main text is ${mainWords} of ${words(md)} words:\n${md}`);
      });
    });
  }
});
