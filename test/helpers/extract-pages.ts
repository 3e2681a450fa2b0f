/**
 * The three checks of an API-01 test page (test/fixtures/cms-themes.ts, framework-pages.ts,
 * page-genres.ts): every main text is in the Markdown, no chrome text is, and the main text (with
 * the `optional` parts found) makes up at least 90% of the output's words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMarkdown } from '../../src/services/web-to-markdown/core.ts';

export interface TestPage {
  readonly name: string;
  readonly html: string;
  /** texts that must be in the output */
  readonly main: readonly string[];
  /** texts that must not */
  readonly chrome: readonly string[];
  /** texts that may be either (counted as main text when found) */
  readonly optional?: readonly string[];
}

/** Letters and digits only, lower-cased: Markdown markers and escapes do not matter. */
export const norm = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
/** Words; Han and kana count one per character, as the evaluation counts them. */
export const words = (s: string): number => {
  const n = norm(s);
  if (n === '') return 0;
  const cjk = n.match(CJK)?.length ?? 0;
  const rest = n.replace(CJK, ' ').trim();
  return cjk + (rest === '' ? 0 : rest.split(/\s+/).length);
};

/** Registers the three checks for each page (`chromeName` says what the chrome is in the test name). */
export function checkPages(pages: readonly TestPage[], url: string, chromeName: string): void {
  for (const page of pages) {
    describe(page.name, () => {
      const md = extractMarkdown({ html: page.html, url, includeLinks: false }).markdown;
      const out = norm(md);

      it('keeps every main text', () => {
        const missing = page.main.filter((t) => !out.includes(norm(t)));
        assert.deepEqual(missing, [], `missing from:\n${md}`);
      });

      it(`leaves out ${chromeName}`, () => {
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
