/**
 * API-01 tree events (html-events.ts) against htmlparser2's own Parser: the port of its tree rules
 * must give the same open/text/close sequence (attributes compared on the ones the extractor
 * reads) on hand-written quirks and on seeded random tag soup.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Parser } from 'htmlparser2';
import { parseTree } from '../src/services/web-to-markdown/html-events.ts';
import { parsePage } from '../src/services/web-to-markdown/dom.ts';
import { rng } from './helpers/rng.ts';

const READ = ['class', 'id', 'style', 'role', 'hidden', 'href', 'src', 'alt', 'lang', 'data-src', 'colspan'];

function viaParser(html: string): string[] {
  const out: string[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') out.push('#' + text);
    text = '';
  };
  const p = new Parser(
    {
      onopentag(name, attribs) {
        flush();
        const kept = READ.filter((k) => k in attribs).map((k) => `${k}=${attribs[k]}`);
        out.push(`<${name} ${kept.join(' ')}`);
      },
      ontext(t) {
        text += t;
      },
      onclosetag(name) {
        flush();
        out.push(`</${name}`);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  p.write(html);
  p.end();
  flush();
  return out;
}

function viaTree(html: string): string[] {
  const out: string[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') out.push('#' + text);
    text = '';
  };
  parseTree(html, {
    wantsAttributes: () => true,
    wantsText: () => true,
    openTag(name, attrs) {
      flush();
      const kept = READ.filter((k) => k in attrs).map((k) => `${k}=${attrs[k]}`);
      out.push(`<${name} ${kept.join(' ')}`);
      return true;
    },
    text(t) {
      text += t;
    },
    closeTag(name) {
      flush();
      out.push(`</${name}`);
    },
  });
  flush();
  return out;
}

/** The Parser also closes every element still open at the end; the tree events stop there. */
function assertSameTree(html: string): void {
  const expected = viaParser(html);
  const actual = viaTree(html);
  assert.deepEqual(actual, expected.slice(0, actual.length), html);
  for (const rest of expected.slice(actual.length)) assert.match(rest, /^<\//, html);
}

const QUIRKS = [
  '<p>one<p>two<div>three</p>four',
  '<ul><li>a<li>b<ul><li>c</ul></ul>',
  '<table><tr><td>1<td>2<tr><th>3</table>',
  '<form><form><input name=x></form></form>',
  '</p><br></br>text</br>',
  '<dl><dt>t<dd>d<dt>u</dl>',
  '<h1>a<h2>b</h1>c',
  '<svg><path d="M0"/><clipPath id=c><rect/></clipPath><foreignObject><p>html/</p><br/></foreignObject></svg><p>after</p>',
  '<math><mi>x</mi><mo/></math><image src=a.png>',
  '<p CLASS="A &amp; B" Class=second ID=x&lt;y href="?a=1&copy=2">t&eacute;xt &#x41;&#66; &amp</p>',
  '<script>if (a < b && c) { document.write("</p>") }</script><style>p > a { }</style><title>T &amp; t</title>',
  '<textarea>&lt;b&gt;</textarea><![CDATA[x]]><svg><![CDATA[y]]></svg><!-- c --><!doctype html><?pi x?>',
  '<a href=1>one<a href=2>two</a>',
  '<select><option>a<option>b</select><button><input></button>',
  '<div><span><b><i>x</div>y</i>',
  '<body><head><link rel=x><script></script>',
  '<p>unterminated <b>bold <a href="x',
  // Character references: the page's tokenizer leaves them to html-references.ts's second tokenizer.
  '<title>a <b> &amp; </b> &lt<&amp; </titlex> &#x41</title><textarea>x<&amp;y &notit; </textarea>',
  '<xmp>&amp; <b></xmp><noembed>&amp;</noembed><noframes>&lt;</noframes><iframe>&amp;<p></iframe><p>&amp;</p>',
  '<p>&notit; &notin; &ampx &AMP; &#128; &#0; &#xD800; &#x110000; &#65 &#x &# & &lt &Aacute &Aacutex a<&amp;b a <&lt; &amp</p>',
  '<a href=a&amp=1&lt;2 alt=\'&quot;x&quot\' class="&amp=x &notin; &#x41 &copy" id=&ampx;>t</a><img src="&#x2F;a&#47;b" alt=&#128;&#0;>',
  '<svg><title>&amp; <b>x</b></title><style>&amp;</style></svg><title>&amp;</title>',
  '<plaintext>&amp; <p>not a tag</p>',
  // Names skipped at once (tokenizer-skips.ts toNameEnd): every ending character, odd characters
  // inside names, and names cut by the end of the page.
  '<DiV\tCLaSs=a\nID=b\fdata-x-y-z="1"\rhref=/u/v/>t</DIV\t><p/class=c/id=d>u</p >',
  '<a hr<ef=x cl"ass=y i\'d=z =w class==v>t</a><im-g src=s alt=a>x</im-g foo><b\u00e9 id=\u00e9>y</b\u00e9>',
  '<p\fclass\f=a\fid\r=b>x</p\r><div\rclass\r\nhidden\f>y</div\f><br\r/><a\thref\t=\t"/z">z</a\t>',
  // Common references alone are decoded by a replace, any other one sends the run to the decoder.
  '<a href="/u?a=1&amp;b=2&amp;amp;c=&quot;3&quot;&#39;&apos;&lt;&gt;&nbsp;" title=x>&amp;&lt;b&gt; &quot;q&quot;&nbsp;&#39;</a>',
  '<a href="/u?a=1&amp;b&ampc&amp=d" class=\'&amp;&notit;\' id=&amp;&lt>&amp;&amp &amp;&copy; &#39&#39; &AMP; &Amp;</a>',
  '<title>x <&amp; y &amp;</title><p>x <&amp; y</p><title>z</title><title>&amp;&quot;t&quot;</title><textarea>&lt;&amp;</textarea><p>&#039; &#x27; &amp;amp; &nbsp&nbsp;</p>',
  '<p class=a>text</p><div class',
  '<p>t</p><span id=x data-long-name',
  '<p>t</p><sec',
  '<p>t</p></sect',
];

/** Long raw-text bodies (the tokenizer skips those past RAW_SKIP_CHARS with a native search). */
const JS = 'if (a < b && c > d) { s = "<p>not a tag</p><\\/script>"; t = \'</scripts>\'; } // &amp; stays\n'.repeat(30);
const CSS = 'p > a:hover { content: "</styles>"; color: #fff } /* <b> */\n'.repeat(40);
const RAW = [
  `<p>before</p><script>${JS}</script><p>after &amp; more</p>`,
  `<script type="module">${JS}</SCRIPT ><style>${CSS}</style\t><div class=x>t</div>`,
  `<script/>${JS}</script/><p>self-closing script still reads raw text</p>`,
  `<svg><script>${JS}</script><style>${CSS}</style><path/></svg><p>foreign: not raw text</p>`,
  `<nav><script>${JS}</script></nav><main><style>${CSS}</style><p>x</p></main>`,
  `<p>unclosed script</p><script>${JS}`,
  `<style>${CSS}</stylex></style><p>y</p>`,
  `<script>${JS}</script><script>${JS}</script>text<style>${CSS}`,
];

describe('html-events: the tree htmlparser2\'s Parser builds', () => {
  for (const html of QUIRKS) it(`same events for ${JSON.stringify(html).slice(0, 60)}`, () => assertSameTree(html));
  for (const html of RAW) it(`same events with long raw text: ${JSON.stringify(html.replace(/(.{20})[^<]{200,}/g, '$1…')).slice(0, 70)}`, () => assertSameTree(html));

  it('same events on 3,000 seeded random tag soups', () => {
    const rand = rng(20261121);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const tags = ['p', 'div', 'span', 'a', 'b', 'i', 'li', 'ul', 'ol', 'table', 'tr', 'td', 'th', 'tbody', 'thead', 'tfoot', 'form', 'input', 'select', 'option', 'optgroup', 'button', 'textarea', 'br', 'hr', 'img', 'image', 'svg', 'path', 'clippath', 'foreignobject', 'math', 'mi', 'title', 'script', 'style', 'h1', 'h3', 'dd', 'dt', 'dl', 'body', 'head', 'html', 'pre', 'rt', 'rp', 'FORM', 'Div', 'xmp', 'iframe', 'noembed', 'noframes', 'TITLE', 'TextArea'];
    const attrs = ['class="x y"', 'CLASS=z', 'id=a&amp;b', 'href="/u?a=1&copy=2"', "style='display:none'", 'hidden', 'data-src=s', 'onclick="x()"', 'alt="&lt;&#x41;&eacute"', 'colspan=2', "alt='&amp=1&notin;&#128;'", 'src=a&ampx&#0;', 'href="&#x110000;&"', 'class=&#65&lt'];
    const texts = ['text', ' ', '&amp;', '&lt;', '&#169;', '&nbsp', 'a < b', '&unknown;', '\n', '&amp', '&notit;', '&#128;', '&#xD800;', '&', '&#', '<&amp;', '&Aacutex', '&#65'];
    for (let n = 0; n < 3000; n++) {
      let html = '';
      const parts = 1 + Math.floor(rand() * 25);
      for (let k = 0; k < parts; k++) {
        const r = rand();
        if (r < 0.4) {
          const a = rand() < 0.5 ? '' : ' ' + pick(attrs) + (rand() < 0.3 ? ' ' + pick(attrs) : '');
          html += `<${pick(tags)}${a}${rand() < 0.1 ? '/' : ''}>`;
        } else if (r < 0.7) html += `</${pick(tags)}>`;
        else if (r < 0.95) html += pick(texts);
        else if (r < 0.98) html += pick(['<!-- c -->', '<![CDATA[d]]>', '<!doctype html>']);
        else html += `<${pick(['script', 'style', 'SCRIPT'])}>${pick([JS, CSS, 'x<y'])}${rand() < 0.8 ? `</${pick(['script', 'style'])}>` : ''}`;
      }
      assertSameTree(html);
    }
  });
});

describe('html-events: extraction tree details', () => {
  it('reads no attributes inside dropped subtrees and keeps the first of a repeated attribute', () => {
    const page = parsePage('<nav class="n"><a href="/x">x</a></nav><p class="one" CLASS="two" onclick="f()">t</p>', 'lenient');
    const p = page.root.children.find((c) => typeof c !== 'string' && c.tag === 'p');
    assert.ok(p && typeof p !== 'string');
    assert.deepEqual(p.attrs, { class: 'one' });
  });

  it('stops at MAX_OPEN_ELEMENTS open elements (linear time on unclosed tag floods)', () => {
    const t0 = performance.now();
    const page = parsePage('<div>'.repeat(200_000) + 'deep', 'lenient');
    assert.ok(performance.now() - t0 < 2000);
    assert.ok(page.root.children.length > 0);
  });
});
