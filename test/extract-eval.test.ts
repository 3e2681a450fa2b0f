/**
 * API-01 on the development pages of eval/data/extract: article-body F1 (the benchmark's
 * 4-gram shingle score) above a floor, and the calibrated HTML token estimate within 5% of the
 * exact o200k_base count on every page (CONTRACT.md §5).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { loadPages, markdownToText, prf, shingleMatch } from '../scripts/eval-extract.ts';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';
import { estimateHtmlTokens } from '../src/services/web-to-markdown/token-estimate.ts';
import { countTokens } from '../src/tokenizer/index.ts';

const EVAL_DIR = path.resolve(import.meta.dirname, '../eval/data/extract');
const skip = existsSync(EVAL_DIR) ? false : 'eval data not present';

describe('development pages', { skip }, () => {
  const pages = skip ? [] : loadPages();

  it('extracts article bodies with F1 >= 0.95 and no page below 0.80', () => {
    const counts = pages.map(({ page, html }) => shingleMatch(page.expected_text, markdownToText(extractMarkdown({ html, url: page.url, includeLinks: false }).markdown)));
    const { f1 } = prf(counts);
    assert.ok(f1 >= 0.95, `F1 ${f1.toFixed(3)}`);
    for (const [i, c] of counts.entries()) assert.ok(prf([c]).f1 >= 0.8, `${pages[i]!.page.id}: ${prf([c]).f1.toFixed(3)}`);
  });

  it('estimates the HTML token count within 5% of the exact o200k_base count on every page', () => {
    for (const { page, html } of pages) {
      const exact = countTokens(html, 'o200k_base');
      const estimate = estimateHtmlTokens(html);
      const error = Math.abs(estimate / exact - 1);
      assert.ok(error <= 0.05, `${page.id}: estimate ${estimate}, exact ${exact} (${(error * 100).toFixed(1)}%)`);
    }
  });

  it("counts every page's Markdown exactly as gpt-tokenizer's own encode does, also when counted again (piece cache)", () => {
    const plain = { disallowedSpecial: new Set<string>() };
    for (const round of [1, 2]) {
      for (const { page, html } of pages) {
        for (const includeLinks of [true, false]) {
          const r = extractMarkdown({ html, url: page.url, includeLinks });
          assert.equal(r.markdownTokens, encodeO200k(r.markdown, plain).length, `${page.id} links=${includeLinks} round ${round}`);
        }
      }
    }
  });

  it('keeps links absolute when include_links is true', () => {
    for (const { page, html } of pages.slice(0, 5)) {
      const md = extractMarkdown({ html, url: page.url, includeLinks: true }).markdown;
      for (const m of md.matchAll(/\]\(([^)\s]+)\)/g)) assert.match(m[1]!, /^(https?:|mailto:|tel:)/, page.id);
    }
  });
});
