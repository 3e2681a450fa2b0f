/**
 * API-01 on article pages as popular CMSs and site generators render them (test/fixtures/cms-themes.ts:
 * each page follows its theme's own templates, with neutral text), and on pages whose markup names
 * little by meaning: front-end builds with hashed or utility classes, hosted builders, forum and
 * Q&A threads (test/fixtures/framework-pages.ts), and on news, blog and company pages of further
 * CMSs, builders and blog platforms in several languages (test/fixtures/cms-regional.ts). Every
 * paragraph of the main text is in the Markdown, the navigation, sidebar, comments, footer and
 * consent texts are not, and the main text (with the `optional` parts of the article found) makes
 * up at least 90% of the output's words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { THEME_PAGES } from './fixtures/cms-themes.ts';
import { FRAMEWORK_PAGES } from './fixtures/framework-pages.ts';
import { REGIONAL_PAGES } from './fixtures/cms-regional.ts';
import { checkPages } from './helpers/extract-pages.ts';

const URL = 'https://x.test/2024/05/post';
const CHROME = 'navigation, sidebar, comments, footer and consent texts';

describe('article pages of CMS and site-generator themes', () => {
  it('covers at least ten systems', () => {
    assert.ok(THEME_PAGES.length >= 10);
    assert.equal(new Set(THEME_PAGES.map((p) => p.name)).size, THEME_PAGES.length);
  });
  checkPages(THEME_PAGES, URL, CHROME);
});

describe('pages of front-end builds, hosted builders, forums and Q&A threads', () => {
  it('covers at least fifteen systems', () => {
    assert.ok(FRAMEWORK_PAGES.length >= 15);
    assert.equal(new Set(FRAMEWORK_PAGES.map((p) => p.name)).size, FRAMEWORK_PAGES.length);
  });
  checkPages(FRAMEWORK_PAGES, URL, CHROME);
});

describe('news, blog and company pages of further CMSs and blog platforms, in several languages', () => {
  it('covers at least fifteen systems', () => {
    assert.ok(REGIONAL_PAGES.length >= 15);
    assert.equal(new Set(REGIONAL_PAGES.map((p) => p.name)).size, REGIONAL_PAGES.length);
  });
  checkPages(REGIONAL_PAGES, URL, CHROME);
});
