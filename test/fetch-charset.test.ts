/**
 * Page bytes -> text (src/fetch/charset.ts): legacy charsets decode right from the Content-Type
 * header, a byte order mark or a <meta> (also past the standard's first 1,024 bytes), and pages
 * that declare nothing are sniffed (Shift_JIS, EUC-JP, GBK, Big5; else windows-1252). The
 * eval pages' own charsets are checked in extract-eval.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeBody, sniffLegacy } from '../src/fetch/charset.ts';

const hex = (h: string) => Buffer.from(h, 'hex');
const JA = 'これは日本語のページです。ひらがなとカタカナと漢字が混ざっています。';
const JA_SJIS = hex('82b182ea82cd93fa967b8cea82cc8379815b835782c582b7814282d082e782aa82c882c6834a835e834a836982c68abf8e9a82aa8dac82b482c182c482a282dc82b78142');
const JA_EUC = hex('a4b3a4eca4cfc6fccbdcb8eca4cea5daa1bca5b8a4c7a4b9a1a3a4d2a4e9a4aca4caa4c8a5aba5bfa5aba5caa4c8b4c1bbfaa4acbaaea4b6a4c3a4c6a4a4a4dea4b9a1a3');
const ZH = '这是一个中文网页，正文用简体中文写成，没有声明字符集。';
const ZH_GBK = hex('d5e2cac7d2bbb8f6d6d0cec4cdf8d2b3a3acd5fdcec4d3c3bcf2cce5d6d0cec4d0b4b3c9a3acc3bbd3d0c9f9c3f7d7d6b7fbbcafa1a3');
const TW = '這是一個繁體中文網頁，正文沒有聲明字符集，使用大五碼編碼。';
const TW_BIG5 = hex('b36fac4fa440add3c163c5e9a4a4a4e5baf4adb6a141a5bfa4e5a853a6b3c16ea9faa672b2c5b6b0a141a8cfa5cea46aa4adbd58bd73bd58a143');
const PL = 'Zażółć gęślą jaźń';
const PL_LATIN2 = hex('5a61bff3b3e62067eab66cb1206a61bcf1');
const FR = 'Le café est déjà prêt à côté de la fenêtre, où l’on voit naître l’été.';

const page = (head: string, body: Buffer | string, repeat = 4) =>
  Buffer.concat([Buffer.from(`<html><head>${head}</head><body><p>`), ...Array.from({ length: repeat }, () => (typeof body === 'string' ? Buffer.from(body, 'latin1') : body)), Buffer.from('</p></body></html>')]);

describe('decodeBody', () => {
  it('prefers the byte order mark over every declaration', () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]);
    assert.deepEqual(decodeBody(bytes, 'iso-8859-1', true), { text: 'hi', charset: 'utf-16le' });
    const utf8 = Buffer.concat([hex('efbbbf'), Buffer.from('<meta charset="gbk">é')]);
    assert.equal(decodeBody(utf8, 'shift_jis', true).text, '<meta charset="gbk">é');
  });

  const declared: [name: string, bytes: Buffer, header: string | null, want: string, charset: string][] = [
    ['windows-1252 from the header', page('', Buffer.from([0x93, 0x63, 0x61, 0x66, 0xe9, 0x94, 0x20, 0x80])), 'windows-1252', '“café” €', 'windows-1252'],
    ['ISO-8859-1 from the header (read as windows-1252, as WHATWG says)', page('', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80])), 'ISO-8859-1', 'café €', 'windows-1252'],
    ['ISO-8859-2 from <meta charset>', page('<meta charset="iso-8859-2">', PL_LATIN2), null, PL, 'iso-8859-2'],
    ['ISO-8859-15 from <meta http-equiv>', page('<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-15">', Buffer.from([0xa4, 0x20, 0xbd])), null, '€ œ', 'iso-8859-15'],
    ['Shift_JIS from the header', page('', JA_SJIS), 'Shift_JIS', JA, 'shift_jis'],
    ['Shift_JIS from <meta http-equiv>', page('<meta http-equiv="content-type" content="text/html;charset=x-sjis">', JA_SJIS), null, JA, 'shift_jis'],
    ['EUC-JP from <meta charset>', page('<meta charset="euc-jp">', JA_EUC), null, JA, 'euc-jp'],
    ['GBK from the header', page('', ZH_GBK), 'gbk', ZH, 'gbk'],
    ['GB2312 from <meta> after 2 KB of comments', page(`<!-- ${'x'.repeat(2000)} --><meta http-equiv="Content-Type" content="text/html; charset=gb2312">`, ZH_GBK), null, ZH, 'gbk'],
    ['Big5 from <meta charset>', page('<meta charset="big5">', TW_BIG5), null, TW, 'big5'],
    ['the header over a contradicting <meta>', page('<meta charset="iso-8859-2">', JA_SJIS), 'shift_jis', JA, 'shift_jis'],
  ];
  for (const [name, bytes, header, want, charset] of declared) {
    it(`decodes ${name}`, () => {
      const got = decodeBody(bytes, header, true);
      assert.equal(got.charset, charset);
      assert.ok(got.text.includes(want), got.text.slice(0, 200));
    });
  }

  it('reads valid UTF-8 with non-ASCII text as UTF-8 whatever a legacy label says', () => {
    const utf8 = page('<meta charset="Shift_JIS">', Buffer.from(JA));
    assert.deepEqual([decodeBody(utf8, null, true).charset, decodeBody(utf8, null, true).text.includes(JA)], ['utf-8', true]);
    const fr = page('', Buffer.from(FR));
    assert.equal(decodeBody(fr, 'ISO-8859-1', true).charset, 'utf-8');
    assert.ok(decodeBody(fr, 'ISO-8859-1', true).text.includes(FR));
    // Pure ASCII keeps the declared name (the text is the same either way).
    assert.equal(decodeBody(Buffer.from('<p>plain</p>'), 'iso-8859-2', true).charset, 'iso-8859-2');
  });

  const undeclared: [name: string, bytes: Buffer, want: string, charset: string][] = [
    ['Shift_JIS', page('<title>x</title>', JA_SJIS), JA, 'shift_jis'],
    ['EUC-JP', page('<title>x</title>', JA_EUC), JA, 'euc-jp'],
    ['GBK (read with the gb18030 decoder)', page('<title>x</title>', ZH_GBK), ZH, 'gb18030'],
    ['Big5', page('<title>x</title>', TW_BIG5), TW, 'big5'],
    ['Latin-1 French: windows-1252', page('<title>x</title>', FR.replace(/’/g, '\x92')), FR, 'windows-1252'],
    ['Latin-2 Polish: windows-1252 (no detector can tell; a page must declare it)', page('<title>x</title>', PL_LATIN2, 8), 'Za¿ó³æ', 'windows-1252'],
  ];
  for (const [name, bytes, want, charset] of undeclared) {
    it(`sniffs undeclared ${name}`, () => {
      const got = decodeBody(bytes, null, true);
      assert.equal(got.charset, charset);
      assert.ok(got.text.includes(want), got.text.slice(0, 200));
    });
  }

  it('sniffs nothing in bytes with too few non-ASCII bytes or valid UTF-8', () => {
    assert.equal(sniffLegacy(Buffer.from('plain ascii \xe9', 'latin1')), null);
    assert.deepEqual(decodeBody(Buffer.from(ZH), null, true), { text: ZH, charset: 'utf-8' });
  });

  it('reads http-equiv content-type declarations', () => {
    const bytes = Buffer.concat([Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=koi8-r"><p>'), Buffer.from([0xf0, 0xd2, 0xc9])]);
    assert.match(decodeBody(bytes, null, true).text, /При/);
  });

  it('ignores an unknown charset label and falls back to UTF-8', () => {
    assert.deepEqual(decodeBody(Buffer.from('é'), 'x-unknown-9', true), { text: 'é', charset: 'utf-8' });
  });
});
