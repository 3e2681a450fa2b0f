/**
 * API-01 rules for pages whose markup names little by meaning (the pages of
 * test/fixtures/framework-pages.ts: hashed or utility classes, site builders, forum and Q&A
 * threads), each with look-alikes that must not trigger it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';

const md = (html: string) => extractMarkdown({ html, url: 'https://x.test/', includeLinks: false }).markdown;
const para = (s: string) => `<p>${s}: this paragraph carries enough prose, with commas, clauses and a full stop, to count as main text on any page.</p>`;
const paras = (s: string, n: number) => Array.from({ length: n }, (_, i) => para(`${s} ${i}`)).join('');

describe('headings in components of their own', () => {
  const rich = (id: string, inner: string) => `<div id="comp-${id}" class="Hc0 comp-${id} wixui-rich-text">${inner}</div>`;

  it('keeps a heading component between the text components it heads (Wix rich text, AEM title)', () => {
    const out = md(`<html><body><div class="grid">${rich('a1', paras('Opening', 3))}${rich('a2', '<h2 class="font_2"><span>Second part of the story</span></h2>')}${rich('a3', paras('Closing', 3))}</div></body></html>`);
    assert.match(out, /## Second part of the story\n\nClosing 0/);
    const aem = md(`<html><body><div class="aem-Grid"><div class="text aem-GridColumn"><div class="cmp-text">${paras('Opening', 3)}</div></div><div class="title aem-GridColumn"><div class="cmp-title"><h2 class="cmp-title__text">How the route was chosen</h2></div></div><div class="text aem-GridColumn"><div class="cmp-text">${paras('Closing', 3)}</div></div></div></body></html>`);
    assert.match(aem, /## How the route was chosen\n\nClosing 0/);
  });

  it('leaves out a heading component whose next block was left out (a label over teaser links)', () => {
    const out = md(`<html><body><div class="grid">${rich('a1', paras('Story', 4))}${rich('a2', '<h2>More from the valley</h2>')}<div class="cards"><a href="/a">Harbour wall repairs start in June</a> <a href="/b">A shelter for the quay stop</a></div>${rich('a4', paras('Story', 1))}</div></body></html>`);
    assert.match(out, /Story 3/);
    assert.doesNotMatch(out, /More from the valley/);
  });

  it('reads a heading under layout wrappers of one child as a heading block (Notion `notion-header-block`), but not one beside a link', () => {
    const block = (cls: string, inner: string) => `<div class="notion-selectable notion-${cls}-block"><div style="color:inherit"><div style="display:flex">${inner}</div></div></div>`;
    const body = (extra: string) => `<html><body><div class="notion-page-content">${block('text', `<div data-content-editable-leaf="true">${'Opening words of the page, written as a long sentence with commas, clauses and more. '.repeat(4)}</div>`)}${block('header', '<h2>Choosing the next book</h2>')}${extra}${block('text', `<div data-content-editable-leaf="true">${'Closing words of the page, written as another long sentence, with commas and a stop. '.repeat(4)}</div>`)}</div></body></html>`;
    assert.match(md(body('')), /## Choosing the next book/);
    const cta = md(body('<div class="footer-note"><div class="inner"><h2>Sign up for more like this</h2><a href="/signup">Enter your email to subscribe</a></div></div>'));
    assert.doesNotMatch(cta, /Sign up for more like this/);
  });
});
