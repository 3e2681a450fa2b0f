/**
 * API-01 request bodies into extraction inputs, for both sides of the early start (route.ts
 * `early`): the handler on the event loop, and a worker that was handed the body as it came off
 * the socket. The worker turns the raw bytes into the handler's input the same way the gateway
 * does (parseJsonObject, the route's schema, then requestUrl), so both sides see the same page.
 * Anything the gateway would refuse gives null on the worker: the gateway answers with its own
 * error then and drops the worker's result, so that answer never depends on this side.
 *
 * The worker's parse sits on the request's critical path, so the usual body shape
 * (`{..."html": "<page>"...}`, the page's string followed by simple members only) takes a
 * shorter way that gives the same object for every body the gateway accepts (parseRequestBody):
 *
 *   prefix                         the page's string [a, b]          suffix
 *   {"url":"https://…","html":     "<html>…\"…\n…é…</html>"         ,"include_links":false}
 *   scanned: strings, depth        ASCII kept as is, other chars     scanned backwards: only
 *   (<= 128), the html key at      as Latin-1 bytes or \uXXXX, then  literals, simple strings,
 *   depth 1                        one JSON.parse of a one-byte text  , : } and whitespace
 *
 * and the object is JSON.parse(prefix + "0" + suffix) with `html` set to the page's string. This
 * skips the whole-body UTF-8 decode into a two-byte string (~1.3 ns/byte), the depth scan over
 * the page (the event loop makes both checks anyway) and JSON.parse of a two-byte text. Anything
 * else (another shape, a page with many non-ASCII characters, a failed step) takes the gateway's
 * own parseJsonObject.
 */
import { isAscii } from 'node:buffer';
import { createError } from '../../errors.ts';
import { MAX_JSON_DEPTH, parseJsonObject, stringEnd } from '../../server/body.ts';
import { compileValidator } from '../../schema/validator.ts';
import type { ExtractInput } from './core.ts';
import { ExtractRequest } from './schema.ts';

/** The request's `url`, parsed (the schema only checks its scheme); VALIDATION_FAILED otherwise. */
export function requestUrl(body: ExtractRequest): URL {
  try {
    return new URL(body.url);
  } catch {
    throw createError('VALIDATION_FAILED', 'Request body failed validation', { details: [{ path: '/url', message: 'Expected an absolute http(s) URL' }] });
  }
}

/** The extraction input of a validated body that carries `html` (nothing to fetch). */
export function htmlInput(body: ExtractRequest & { html: string }, url: URL): ExtractInput {
  return { html: body.html, url: url.href, includeLinks: body.include_links ?? true };
}

let validate: ReturnType<typeof compileValidator> | null = null;

/** The extraction input of a raw request body, or null when it has no `html` or the gateway refuses it. */
export function inputFromRawBody(raw: Uint8Array): ExtractInput | null {
  validate ??= compileValidator(ExtractRequest);
  try {
    const body = parseRequestBody(raw);
    validate(body);
    const request = body as ExtractRequest;
    if (request.html === undefined) return null;
    return htmlInput(request as ExtractRequest & { html: string }, requestUrl(request));
  } catch {
    return null;
  }
}

/**
 * The object parseJsonObject gives, for every body parseJsonObject accepts; a body it refuses may
 * throw here or give some object (the gateway refuses it anyway). Linear in the body, whatever
 * its content (deep nesting is refused by the depth scan before the short way's JSON.parse).
 */
export function parseRequestBody(raw: Uint8Array): Record<string, unknown> {
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  return parsePageShaped(bytes) ?? parseJsonObject(bytes);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const PLACEHOLDER = 0;

/** The short way (see the top of the file), or undefined when the body is not of that shape or a step fails. */
export function parsePageShaped(bytes: Buffer): Record<string, unknown> | undefined {
  const a = htmlValueStart(bytes);
  if (a < 0) return undefined;
  const b = lastValueEnd(bytes, a);
  if (b < 0) return undefined;
  let html: unknown;
  let rest: unknown;
  try {
    const text = oneByteJson(bytes, a, b + 1);
    // One JSON string exactly when [a, b] holds no unescaped quote: then it is the page's value.
    // Without the one-byte text (not UTF-8, or too many non-ASCII characters), the fatal decode.
    html = JSON.parse(text ?? utf8.decode(bytes.subarray(a, b + 1)));
    rest = JSON.parse(`${utf8.decode(bytes.subarray(0, a))}${PLACEHOLDER}${utf8.decode(bytes.subarray(b + 1))}`);
  } catch {
    return undefined;
  }
  if (typeof html !== 'string' || rest === null || typeof rest !== 'object' || Array.isArray(rest)) return undefined;
  const body = rest as Record<string, unknown>;
  // No later "html" member (lastValueEnd) replaced the page's; checked all the same.
  if (body.html !== PLACEHOLDER) return undefined;
  body.html = html;
  return body;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isJsonSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * Offset of the opening quote of the string value of the first `"html"` member of the top-level
 * object (its key written without escapes), or -1. Scans strings and bracket depth from the start
 * as jsonDepthExceeds does (-1 past MAX_JSON_DEPTH), so everything before the value is checked.
 */
function htmlValueStart(bytes: Buffer): number {
  const n = bytes.length;
  let i = 0;
  while (isJsonSpace(bytes[i])) i++;
  if (bytes[i] !== 0x7b) return -1;
  let depth = 0;
  for (; i < n; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      const end = stringEnd(bytes, i + 1);
      if (end < 0) return -1;
      // "html" (h t m l) as a key of the top-level object, followed by a string value.
      if (depth === 1 && end === i + 5 && isHtmlKey(bytes, i)) {
        let j = end + 1;
        while (isJsonSpace(bytes[j])) j++;
        if (bytes[j] === 0x3a) {
          j++;
          while (isJsonSpace(bytes[j])) j++;
          if (bytes[j] === QUOTE) return j;
        }
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return -1;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return -1;
}

/**
 * Offset of the closing quote of the page's string (opening quote at `a`), read from the end: `}`
 * after members whose values are literals (true, false, null, numbers) or strings without
 * backslashes, e.g. `","include_links":false}`; -1 for anything else. Nothing there can nest, so
 * with htmlValueStart's scan the whole body outside the page's string is depth-checked. Whether
 * the quote really closes the string that starts at `a` is JSON.parse's to say (parsePageShaped).
 * Each byte is read at most once or twice: linear on any body.
 */
function lastValueEnd(bytes: Buffer, a: number): number {
  let i = bytes.length - 1;
  while (isJsonSpace(bytes[i])) i--;
  if (bytes[i] !== 0x7d) return -1;
  i--;
  for (;;) {
    while (isJsonSpace(bytes[i])) i--;
    if (i <= a) return -1;
    const c = bytes[i]!;
    if (c === QUOTE) {
      // The end of the page's string, or of a later member's plain string value.
      const open = plainStringStart(bytes, i);
      if (open <= a) return i;
      let j = open - 1;
      while (isJsonSpace(bytes[j])) j--;
      if (bytes[j] !== 0x3a) return i;
      i = j;
    } else if (isLiteralByte(c)) {
      while (i > a && isLiteralByte(bytes[i]!)) i--;
      while (isJsonSpace(bytes[i])) i--;
      if (bytes[i] !== 0x3a) return -1;
    } else return -1;
    // `i` is at a member's colon: its key, then the comma before it.
    i--;
    while (isJsonSpace(bytes[i])) i--;
    if (bytes[i] !== QUOTE) return -1;
    const key = plainStringStart(bytes, i);
    if (key <= a || isHtmlKey(bytes, key)) return -1; // a later "html" member would replace the page
    i = key - 1;
    while (isJsonSpace(bytes[i])) i--;
    if (bytes[i] !== 0x2c) return -1;
    i--;
  }
}

/** Whether the string token at `open` is "html" (as the key is usually written: no escapes). */
function isHtmlKey(bytes: Buffer, open: number): boolean {
  return bytes[open + 1] === 0x68 && bytes[open + 2] === 0x74 && bytes[open + 3] === 0x6d && bytes[open + 4] === 0x6c && bytes[open + 5] === QUOTE;
}

/** Start (opening quote) of a string without backslashes that ends at the quote `end`, or -1. */
function plainStringStart(bytes: Buffer, end: number): number {
  const open = bytes.lastIndexOf(QUOTE, end - 1);
  if (open < 0) return -1;
  for (let k = open + 1; k < end; k++) if (bytes[k] === BACKSLASH) return -1;
  return open;
}

function isLiteralByte(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45;
}

/** Bytes per isAscii probe when looking for the non-ASCII characters of a page. */
const PROBE = 256;
/**
 * Bytes copied one by one (the probes that hold non-ASCII bytes) cost ~2 ns each against ~1.5 ns
 * per byte saved on the whole: past an eighth of the page, the plain UTF-8 decode is the cheaper
 * way (pages in scripts with few ASCII runs, e.g. CJK text, go there at once).
 */
const MAX_SLOW_SHIFT = 3;
/** Scratch for the one-byte text, grown to the largest page seen (one per thread). */
let scratch = new Uint8Array(0);
const HEX = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/**
 * bytes[from, to) as a one-byte string that JSON.parse reads as the same JSON: ASCII stays, a
 * non-ASCII character becomes its Latin-1 byte (U+0080..U+00FF) or \uXXXX escapes, which give the
 * same code units inside a string and are as invalid as the raw character anywhere else. null when
 * the bytes are not UTF-8 or hold too many non-ASCII characters for this to pay.
 */
export function oneByteJson(bytes: Buffer, from: number, to: number): string | null {
  const u8 = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isAscii(u8.subarray(from, to))) return bytes.toString('latin1', from, to);
  const len = to - from;
  const maxSlow = len >> MAX_SLOW_SHIFT;
  // At most maxSlow + PROBE bytes are copied one by one (plus up to 3 per probe for a character
  // across its end: < 1.02x), and a character grows to at most 3x its bytes (4 bytes -> two
  // escapes of 6; 3 bytes -> one escape): 3 (maxSlow + PROBE) more bytes always suffice.
  const room = len + 3 * (maxSlow + PROBE) + 16;
  if (scratch.length < room) scratch = new Uint8Array(room);
  const out = scratch;
  let o = 0;
  let i = from; // u8[from, i) are in out[0, o)
  let slow = 0;
  while (i < to) {
    // ASCII probes are copied in one go; a probe holding other bytes is copied byte by byte.
    let ascii = i;
    while (ascii < to && isAscii(u8.subarray(ascii, Math.min(to, ascii + PROBE)))) ascii = Math.min(to, ascii + PROBE);
    if (ascii > i) {
      out.set(u8.subarray(i, ascii), o);
      o += ascii - i;
      i = ascii;
    }
    if ((slow += PROBE) > maxSlow + PROBE) return null;
    const probeEnd = Math.min(to, i + PROBE);
    while (i < probeEnd) {
      const lead = u8[i]!;
      if (lead < 0x80) {
        out[o++] = lead;
        i++;
        continue;
      }
      const cp = codePointAt(u8, i, to);
      if (cp < 0) return null;
      if (cp <= 0xff) out[o++] = cp;
      else if (cp <= 0xffff) o = writeEscape(out, o, cp);
      else o = writeEscape(out, writeEscape(out, o, 0xd7c0 + (cp >> 10)), 0xdc00 | (cp & 0x3ff));
      i += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }
  }
  return Buffer.from(out.buffer, out.byteOffset, o).toString('latin1');
}

/**
 * The code point of the UTF-8 sequence that starts at bytes[i] (>= 0x80) and ends before `to`, or
 * -1 where the fatal decoder refuses it (stray continuation, overlong, surrogate, > U+10FFFF, cut).
 */
function codePointAt(bytes: Uint8Array, i: number, to: number): number {
  const b = bytes[i]!;
  const c1 = i + 1 < to ? bytes[i + 1]! : 0;
  if (b >= 0xc2 && b <= 0xdf) return (c1 & 0xc0) === 0x80 ? ((b & 0x1f) << 6) | (c1 & 0x3f) : -1;
  const c2 = i + 2 < to ? bytes[i + 2]! : 0;
  if (b >= 0xe0 && b <= 0xef) {
    const lo = b === 0xe0 ? 0xa0 : 0x80;
    const hi = b === 0xed ? 0x9f : 0xbf;
    if (c1 < lo || c1 > hi || (c2 & 0xc0) !== 0x80) return -1;
    return ((b & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f);
  }
  const c3 = i + 3 < to ? bytes[i + 3]! : 0;
  if (b >= 0xf0 && b <= 0xf4) {
    const lo = b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xf4 ? 0x8f : 0xbf;
    if (c1 < lo || c1 > hi || (c2 & 0xc0) !== 0x80 || (c3 & 0xc0) !== 0x80) return -1;
    return ((b & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f);
  }
  return -1;
}

function writeEscape(out: Uint8Array, o: number, unit: number): number {
  out[o] = BACKSLASH;
  out[o + 1] = 0x75; // u
  out[o + 2] = HEX[unit >> 12]!;
  out[o + 3] = HEX[(unit >> 8) & 15]!;
  out[o + 4] = HEX[(unit >> 4) & 15]!;
  out[o + 5] = HEX[unit & 15]!;
  return o + 6;
}
