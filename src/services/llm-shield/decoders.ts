/**
 * Embedded payload decoders: base64 (standard and URL-safe, padded or not), base32 (RFC 4648,
 * upper case), Ascii85 between `<~` and `~>`, hex (plain, `\x41`, `0x41`, space-separated), URL
 * percent-encoding and HTML entities. Each finds candidate runs with RE2 in
 * the light view and decodes them by hand; a run counts only when it decodes to readable UTF-8
 * text, which the core then screens like plain input (ROT13 is read in tokens.ts instead).
 */
import RE2 from 're2';

export type Encoding = 'base64' | 'base32' | 'ascii85' | 'hex' | 'url' | 'html_entities';

export interface DecodedRun {
  readonly encoding: Encoding;
  /** light-view offsets of the encoded run */
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export interface DecoderPatterns {
  readonly base64: RE2;
  readonly base32: RE2;
  readonly ascii85: RE2;
  readonly hex: RE2;
  readonly url: RE2;
  readonly entity: RE2;
}

export function createDecoderPatterns(): DecoderPatterns {
  return {
    base64: new RE2(String.raw`[A-Za-z0-9+/_-]{16,}={0,2}`, 'g'),
    base32: new RE2(String.raw`[A-Z2-7]{16,}={0,6}`, 'g'),
    ascii85: new RE2(String.raw`<~([!-u\sz]{10,}?)~>`, 'g'),
    hex: new RE2(String.raw`(?:\\x[0-9a-fA-F]{2}){6,}|(?:0x[0-9a-fA-F]{2}[ ,]{0,2}){6,}|\b(?:[0-9a-fA-F]{2}[ :]){7,}[0-9a-fA-F]{2}\b|\b(?:[0-9a-fA-F]{2}){8,}\b`, 'g'),
    url: new RE2(String.raw`[^\s%]*(?:%[0-9a-fA-F]{2}[^\s%]*){3,}`, 'g'),
    entity: new RE2(String.raw`&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});`, 'g'),
  };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Readable text: valid UTF-8, mostly printable, with some letters. */
function readable(bytes: Uint8Array): string | null {
  if (bytes.length < 6) return null;
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return null;
  }
  let printable = 0;
  let letters = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 9 || c === 10 || c === 13 || (c >= 32 && c !== 127 && !(c >= 0x80 && c < 0xa0))) printable++;
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 0xc0) letters++;
  }
  if (printable / text.length < 0.95 || letters / text.length < 0.5) return null;
  return text;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

function decodeHexRun(s: string): Uint8Array {
  const out: number[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === '\\' && (s[i + 1] === 'x' || s[i + 1] === 'X')) i += 2;
    else if (s[i] === '0' && (s[i + 1] === 'x' || s[i + 1] === 'X')) i += 2;
    const h = hexValue(s.charCodeAt(i));
    const l = hexValue(s.charCodeAt(i + 1));
    if (h >= 0 && l >= 0) {
      out.push(h * 16 + l);
      i += 2;
    } else i++;
  }
  return Uint8Array.from(out);
}

function decodePercentRun(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 37 && i + 2 < s.length + 1) {
      const h = hexValue(s.charCodeAt(i + 1));
      const l = hexValue(s.charCodeAt(i + 2));
      if (h >= 0 && l >= 0) {
        out.push(h * 16 + l);
        i += 2;
        continue;
      }
    }
    if (c === 43) out.push(32);
    else if (c < 128) out.push(c);
    else for (const b of Buffer.from(s[i]!, 'utf8')) out.push(b);
  }
  return Uint8Array.from(out);
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', sol: '/', colon: ':', lpar: '(', rpar: ')', lsqb: '[', rsqb: ']', lbrace: '{', rbrace: '}', excl: '!', quest: '?', num: '#', period: '.', comma: ',', equals: '=', vert: '|', bsol: '\\', newline: '\n', tab: '\t' };

function decodeEntity(e: string): string {
  const body = e.slice(1, -1);
  if (body[0] === '#') {
    const cp = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
  }
  return NAMED_ENTITIES[body.toLowerCase()] ?? e;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * RFC 4648 base32 of a whole run, or null: the run must stand alone (no base64 letters touching
 * it), and its length must be one an encoder writes (a multiple of 8 with padding; without,
 * 2, 4, 5 or 7 characters past the last full group).
 */
function decodeBase32(text: string, start: number, end: number): Uint8Array | null {
  if ((start > 0 && isB64(text.charCodeAt(start - 1))) || (end < text.length && isB64(text.charCodeAt(end)))) return null;
  let data = end;
  while (data > start && text.charCodeAt(data - 1) === 61) data--;
  const len = data - start;
  if (data < end ? (end - start) % 8 !== 0 : ![0, 2, 4, 5, 7].includes(len % 8)) return null;
  const out = new Uint8Array(Math.floor((len * 5) / 8));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = start; i < data; i++) {
    acc = ((acc << 5) | BASE32.indexOf(text[i]!)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** Adobe Ascii85 (the body between `<~` and `~>`; `z` is four zero bytes, whitespace ignored), or null. */
function decodeAscii85(body: string): Uint8Array | null {
  const out: number[] = [];
  let group = 0;
  let n = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (c === 122) {
      if (n !== 0) return null;
      out.push(0, 0, 0, 0);
      continue;
    }
    group = group * 85 + (c - 33);
    if (++n === 5) {
      if (group > 0xffffffff) return null;
      out.push((group >>> 24) & 0xff, (group >>> 16) & 0xff, (group >>> 8) & 0xff, group & 0xff);
      group = 0;
      n = 0;
    }
  }
  if (n === 1) return null;
  if (n > 0) {
    for (let k = n; k < 5; k++) group = group * 85 + 84;
    for (let k = 0; k < n - 1; k++) out.push((group >>> (24 - 8 * k)) & 0xff);
  }
  return Uint8Array.from(out);
}

/** Looks like base64 rather than a long word or identifier: mixed classes and a sane length. */
function base64Shaped(s: string): boolean {
  let upper = 0;
  let lower = 0;
  let digit = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) upper++;
    else if (c >= 97 && c <= 122) lower++;
    else if (c >= 48 && c <= 57) digit++;
  }
  return upper > 0 && lower > 0 && (digit > 0 || upper + lower >= 20);
}

function isB64(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 95 || c === 45;
}

/** One pass deciding which decoders can possibly match: long base64/hex runs, '%' and '&' counts. */
function gates(text: string): { base64: boolean; base32: boolean; hex: boolean; percent: number; amp: number } {
  let b64Run = 0;
  let b32Run = 0;
  let base32 = false;
  let hexRun = 0;
  let base64 = false;
  let hex = false;
  let percent = 0;
  let amp = 0;
  let spacedPairs = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    b64Run = isB64(c) ? b64Run + 1 : 0;
    if (b64Run >= 16) base64 = true;
    b32Run = (c >= 65 && c <= 90) || (c >= 50 && c <= 55) ? b32Run + 1 : 0;
    if (b32Run >= 16) base32 = true;
    // 16 contiguous hex digits, or "\x"/"0x" escapes (spaced pairs "69 67 6e ..." have digits too)
    hexRun = hexValue(c) >= 0 ? hexRun + 1 : 0;
    if (hexRun >= 16 || (c === 120 && (text.charCodeAt(i - 1) === 92 || text.charCodeAt(i - 1) === 48))) hex = true;
    if (hexRun === 2 && (text.charCodeAt(i + 1) === 32 || text.charCodeAt(i + 1) === 58) && hexValue(text.charCodeAt(i + 2)) >= 0 && hexValue(text.charCodeAt(i + 3)) >= 0 && (text.charCodeAt(i + 4) === 32 || text.charCodeAt(i + 4) === 58)) {
      spacedPairs++;
      if (spacedPairs >= 6) hex = true;
    }
    if (c === 37) percent++;
    else if (c === 38) amp++;
  }
  return { base64, base32, hex, percent, amp };
}

/** Decodes every readable encoded run of `text`, at most `budget` characters of decoded output. */
export function findEncodedRuns(text: string, p: DecoderPatterns, budget = text.length): DecodedRun[] {
  const out: DecodedRun[] = [];
  let used = 0;
  const push = (encoding: Encoding, start: number, end: number, decoded: string | null): void => {
    if (decoded === null || used + decoded.length > budget) return;
    used += decoded.length;
    out.push({ encoding, start, end, text: decoded });
  };

  const g = gates(text);
  p.base64.lastIndex = 0;
  for (let m = g.base64 ? p.base64.exec(text) : null; m !== null; m = p.base64.exec(text)) {
    const s = m[0];
    if (!base64Shaped(s)) continue;
    const std = s.includes('-') || s.includes('_') ? Buffer.from(s, 'base64url') : Buffer.from(s, 'base64');
    push('base64', m.index, m.index + s.length, readable(std));
  }
  p.base32.lastIndex = 0;
  for (let m = g.base32 ? p.base32.exec(text) : null; m !== null; m = p.base32.exec(text)) {
    const bytes = decodeBase32(text, m.index, m.index + m[0].length);
    if (bytes !== null) push('base32', m.index, m.index + m[0].length, readable(bytes));
  }
  p.ascii85.lastIndex = 0;
  for (let m = text.includes('<~') ? p.ascii85.exec(text) : null; m !== null; m = p.ascii85.exec(text)) {
    const bytes = decodeAscii85(m[1]!);
    if (bytes !== null) push('ascii85', m.index, m.index + m[0].length, readable(bytes));
  }
  p.hex.lastIndex = 0;
  for (let m = g.hex ? p.hex.exec(text) : null; m !== null; m = p.hex.exec(text)) {
    push('hex', m.index, m.index + m[0].length, readable(decodeHexRun(m[0])));
  }
  p.url.lastIndex = 0;
  for (let m = g.percent >= 3 ? p.url.exec(text) : null; m !== null; m = p.url.exec(text)) {
    push('url', m.index, m.index + m[0].length, readable(decodePercentRun(m[0])));
  }
  // HTML entities: when the text holds four or more, the span from the first to the last is
  // decoded as one run (plain words between entities belong to the hidden sentence).
  if (g.amp >= 4) {
    p.entity.lastIndex = 0;
    let first = -1;
    let lastEnd = -1;
    let count = 0;
    let decoded = '';
    for (let m = p.entity.exec(text); m !== null; m = p.entity.exec(text)) {
      if (first < 0) first = m.index;
      else decoded += text.slice(lastEnd, m.index);
      decoded += decodeEntity(m[0]);
      lastEnd = m.index + m[0].length;
      count++;
    }
    // the word the last entity starts ("&#105;&#110;structions") runs on to the next space
    let tail = lastEnd;
    while (tail < text.length && tail - lastEnd < 64 && !/\s/.test(text[tail]!)) tail++;
    decoded += text.slice(lastEnd, tail);
    lastEnd = tail;
    if (count >= 4 && used + decoded.length <= budget) {
      used += decoded.length;
      out.push({ encoding: 'html_entities', start: first, end: lastEnd, text: decoded });
    }
  }
  return out;
}
