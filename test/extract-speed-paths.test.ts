/**
 * API-01 speed paths give what the straightforward code gave: text counted while parsing
 * (measure.ts TextMeter, dom.ts `ownText`, the strict copy's corrections) against measure's former
 * per-character walk over the text children, on seeded random pages and both views; paragraph
 * ends trimmed natively (inline-text.ts trimBreaks) where <br> and Unicode spaces meet.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePage, strictView, type ElementNode, type ParseMode } from '../src/services/web-to-markdown/dom.ts';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';
import { measure } from '../src/services/web-to-markdown/measure.ts';
import { rng } from './helpers/rng.ts';

/** measure's text and comma counts as it computed them before (a walk over the strings). */
function reference(el: ElementNode): { text: number; commas: number } {
  let text = 0;
  let commas = 0;
  let prevSpace = true;
  for (const child of el.children) {
    if (typeof child === 'string') {
      for (let i = 0; i < child.length; i++) {
        const c = child.charCodeAt(i);
        if (c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 160) {
          if (!prevSpace) text++;
          prevSpace = true;
        } else {
          text++;
          prevSpace = false;
          if (c === 44 || c === 0xff0c || c === 0x3001 || c === 0x060c) commas++;
        }
      }
      continue;
    }
    const r = reference(child);
    text += r.text;
    commas += r.commas;
    prevSpace = false;
  }
  return { text, commas };
}

function assertSameCounts(root: ElementNode, html: string): void {
  measure(root);
  const walk = (el: ElementNode): void => {
    const r = reference(el);
    assert.equal(el.textLen, r.text, `textLen of <${el.tag}> in ${JSON.stringify(html).slice(0, 300)}`);
    assert.equal(el.commas, r.commas, `commas of <${el.tag}> in ${JSON.stringify(html).slice(0, 300)}`);
    for (const c of el.children) if (typeof c !== 'string') walk(c);
  };
  walk(root);
}

const TAGS = ['p', 'div', 'span', 'a', 'b', 'li', 'ul', 'td', 'tr', 'table', 'br', 'img', 'h2', 'pre', 'section', 'script', 'style', 'nav', 'title'];
const ATTRS = ['', '', '', ' class="comment-list"', ' class="share"', ' id="sidebar"', ' class="article-body"', ' hidden', ' style="display:none"', ' role="navigation"'];
/** Whitespace of every kind the counter knows, entities that decode to it or to commas, wide commas. */
const TEXTS = ['word', ' ', '  ', '\n\t', '\r\n', '\f', '\u00a0', '&nbsp;', '&#32;', 'a, b', ',', '&#44;', '&comma;', '\uff0c', '\u3001', '\u060c', 'x ', ' y', '<!-- c -->', '&amp;', 'é', '😀'];

function randomPage(rand: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  let html = '';
  const parts = 1 + Math.floor(rand() * 40);
  for (let k = 0; k < parts; k++) {
    const r = rand();
    if (r < 0.3) html += `<${pick(TAGS)}${pick(ATTRS)}>`;
    else if (r < 0.45) html += `</${pick(TAGS)}>`;
    else html += pick(TEXTS);
  }
  return html;
}

describe('web-to-markdown speed paths: text counted while parsing', () => {
  it('gives the counts of the per-character walk on 2,000 seeded random pages, both views and modes', () => {
    const rand = rng(20261122);
    for (let n = 0; n < 2000; n++) {
      const html = randomPage(rand);
      for (const mode of ['lenient', 'all'] as ParseMode[]) {
        const page = parsePage(html, mode);
        assertSameCounts(page.root, html);
        // The strict copy leaves out class/id boilerplate: text around it joins and is recounted.
        assertSameCounts(strictView(page).root, html);
      }
    }
  });

  it('counts a leading space once text joins other text across a left-out element', () => {
    const html = '<div><p>ab <span class="share">x</span> cd</p><p><span class="share">y</span> ef,</p></div>';
    const page = parsePage(html, 'lenient');
    const strict = strictView(page).root;
    measure(page.root);
    measure(strict);
    // Lenient: "ab " + span(x) + " cd" -> ab_ x _cd = 8; strict: "ab  cd" -> "ab cd" = 5.
    const [p1, p2] = (strict.children[0] as ElementNode).children as ElementNode[];
    assert.equal(p1!.textLen, 5);
    // " ef," opens the paragraph in the strict view: its leading space does not count.
    assert.equal(p2!.textLen, 3);
    assert.equal(p2!.commas, 1);
    assertSameCounts(page.root, html);
    assertSameCounts(strict, html);
  });
});

describe('web-to-markdown speed paths: paragraph ends', () => {
  it('drops <br> at either end of a paragraph with the whitespace around it, Unicode spaces included', () => {
    const md = (html: string) => extractMarkdown({ html, url: 'https://x.test/', includeLinks: true }).markdown;
    assert.equal(
      md('<article><p><br>\u3000 Line one,<br> two<br><br>\u2003</p><p>\ufeff<br> <br>three&nbsp;<br></p><p>\u00a0 four \u2028</p></article>'),
      'Line one,  \ntwo\n\nthree\n\nfour',
    );
    assert.equal(md('<article><div><br><b> x </b><br></div><p>y<br>\u205f</p></article>'), '**x**\n\ny');
  });
});
