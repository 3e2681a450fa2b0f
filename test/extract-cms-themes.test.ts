/**
 * API-01 on article pages as popular CMSs and site generators render them (test/fixtures/cms-themes.ts:
 * each page follows its theme's own templates, with neutral text): every paragraph of the main
 * text is in the Markdown, the theme's navigation, sidebar, comments, footer and consent texts are
 * not, and the main text (with the `optional` parts of the article found) makes up at least 90% of
 * the output's words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';
import { THEME_PAGES } from './fixtures/cms-themes.ts';

/** Letters and digits only, lower-cased: Markdown markers and escapes do not matter. */
const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
const words = (s: string) => (norm(s) === '' ? 0 : norm(s).split(' ').length);

describe('article pages of CMS and site-generator themes', () => {
  it('covers at least ten systems', () => {
    assert.ok(THEME_PAGES.length >= 10);
    assert.equal(new Set(THEME_PAGES.map((p) => p.name)).size, THEME_PAGES.length);
  });

  for (const page of THEME_PAGES) {
    describe(page.name, () => {
      const md = extractMarkdown({ html: page.html, url: 'https://x.test/2024/05/post', includeLinks: false }).markdown;
      const out = norm(md);

      it('keeps every paragraph and heading of the main text', () => {
        const missing = page.main.filter((t) => !out.includes(norm(t)));
        assert.deepEqual(missing, [], `missing from:\n${md}`);
      });

      it('leaves out navigation, sidebar, comments, footer and consent texts', () => {
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
