/**
 * API-01 on article pages as popular CMSs and site generators render them (test/fixtures/cms-themes.ts:
 * each page follows its theme's own templates, with neutral text), and on pages whose markup names
 * little by meaning: front-end builds with hashed or utility classes, hosted builders, forum and
 * Q&A threads (test/fixtures/framework-pages.ts). Every paragraph of the main text is in the
 * Markdown, the navigation, sidebar, comments, footer and consent texts are not, and the main text
 * (with the `optional` parts of the article found) makes up at least 90% of the output's words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';
import { THEME_PAGES, type ThemePage } from './fixtures/cms-themes.ts';
import { FRAMEWORK_PAGES } from './fixtures/framework-pages.ts';

/** Letters and digits only, lower-cased: Markdown markers and escapes do not matter. */
const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
const words = (s: string) => (norm(s) === '' ? 0 : norm(s).split(' ').length);

describe('article pages of CMS and site-generator themes', () => {
  it('covers at least ten systems', () => {
    assert.ok(THEME_PAGES.length >= 10);
    assert.equal(new Set(THEME_PAGES.map((p) => p.name)).size, THEME_PAGES.length);
  });
  checkPages(THEME_PAGES);
});

describe('pages of front-end builds, hosted builders, forums and Q&A threads', () => {
  it('covers at least fifteen systems', () => {
    assert.ok(FRAMEWORK_PAGES.length >= 15);
    assert.equal(new Set(FRAMEWORK_PAGES.map((p) => p.name)).size, FRAMEWORK_PAGES.length);
  });
  checkPages(FRAMEWORK_PAGES);
});

function checkPages(pages: readonly ThemePage[]): void {
  for (const page of pages) {
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
}
