/**
 * API-01 time grows linearly with the page: each case is a page shape that once cost quadratic
 * time (a regex retried from every position, a search repeated per element), timed at a size
 * and at four times that size.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';
import { parsePage } from '../src/services/web-to-markdown/dom.ts';
import { bodyOf } from '../src/services/web-to-markdown/dom-queries.ts';
import { measure } from '../src/services/web-to-markdown/measure.ts';
import { renderMarkdown } from '../src/services/web-to-markdown/render.ts';

/** Best of two runs, in milliseconds (the first run also warms the code up). */
function time(html: string): number {
  let best = Infinity;
  for (let r = 0; r < 2; r++) {
    const t0 = performance.now();
    extractMarkdown({ html, url: 'https://x.test/', includeLinks: true });
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/**
 * Best of two renderings of the page's body with the conditional cleaner, in milliseconds: for
 * a cost of the renderer that the page's parse and the fallback attempts (each a renderer run)
 * would hide at sizes a test can afford.
 */
function renderTime(html: string): number {
  const body = bodyOf(parsePage(html, 'lenient').root);
  measure(body);
  let best = Infinity;
  for (let r = 0; r < 2; r++) {
    const t0 = performance.now();
    renderMarkdown([body], { base: null, includeLinks: true, clean: true });
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** `unit` repeated to about `bytes` characters between `head` and `tail`. */
function fill(bytes: number, head: string, unit: string, tail = ''): string {
  return head + unit.repeat(Math.floor(bytes / unit.length)) + tail;
}

describe('API-01 time grows linearly with the page', () => {
  // Four times the page may take about four times as long; a quadratic pass takes sixteen. The
  // sizes are where the old code's square already shows (it failed each case) and the new
  // code's runs stay short; a small fixed slack absorbs timer noise. `render`: the renderer
  // alone is timed, where the rest of the extraction would hide its cost or add one of its own.
  const KiB = 1024;
  const cases: Record<string, { kib: number; page: (bytes: number) => string; render?: true }> = {
    'a paragraph of <br>s that ends in one (trimmed at both ends)': { kib: 16, page: (n) => fill(n, '<body><p>a', '<br>', 'b<br></p>') },
    'bold text around a long run of spaces between empty elements (emphasis marks set inside the white space)': { kib: 32, page: (n) => fill(n, '<body><p>x<b>a', ' <i></i>', 'b</b></p>') },
    // A search of the parent's children per list shows over the rest of the work from ~0.5 MiB on.
    'sibling lists of links, each asked whether the block before it announces it': { kib: 512, page: (n) => fill(n, '<body><p>Text.</p>', '<ul><li><a href=/x>l</a></ul> '), render: true },
    // Rendering only: the Markdown's exact token count is itself slow on one long run of a
    // character (the tokenizer's byte-pair merge), whatever the renderer does.
    'a <pre> holding one long run of backticks (its fence must be longer)': { kib: 16, page: (n) => fill(n, '<body><pre>', '`', '</pre>'), render: true },
    // The open elements grow with the page (to ~3,900 of the 4,096 the parse allows), so a search
    // of them per tag grows with its square.
    'stray close tags under ever more open elements': { kib: 96, page: (n) => fill(n, '<body>' + '<div>'.repeat(n / 100), '</x>') },
    '<form> pairs under ever more open elements (is a <form> open?)': { kib: 96, page: (n) => fill(n, '<body>' + '<div>'.repeat(n / 100), '<form></form>') },
    // Each comment heading looked for its place among its parent's children from the first one.
    'thousands of "Comments" section headings under one parent': { kib: 640, page: (n) => fill(n, '<body><main><article><h1>T</h1>', '<h2>Comments</h2><p>Some text of a section that is long enough.</p>', '</article></main>') },
  };
  for (const [name, { kib, page, render }] of Object.entries(cases)) {
    it(`on ${name}`, () => {
      const timer = render ? renderTime : time;
      const small = timer(page(kib * KiB));
      const large = timer(page(4 * kib * KiB));
      assert.ok(large < 8 * small + 40, `${small.toFixed(1)} ms at ${kib} KiB, ${large.toFixed(1)} ms at ${4 * kib} KiB`);
    });
  }
});
