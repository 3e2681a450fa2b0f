/**
 * Bytes of a fetched page -> text, with the encoding the page declares (WHATWG Encoding / HTML
 * "determining the character encoding", simplified): byte order mark, then the Content-Type
 * `charset`, then a `<meta charset>` / `<meta http-equiv>` in the first 4 KiB, then UTF-8 when
 * the bytes are valid UTF-8, then a sniff for the legacy East Asian double-byte encodings
 * (`sniffLegacy`), else windows-1252 (the web's legacy default).
 *
 * The standard's prescan reads 1,024 bytes; browsers then still detect the encoding from the
 * content (Firefox's chardetng, Chrome's CED). Old pages often open with long comments or scripts
 * before their `<meta>`, so the prescan here reads 4 KiB; pages that declare nothing at all are
 * sniffed, which is what those detectors do, restricted to what byte statistics tell reliably.
 */
import { isAscii, isUtf8 } from 'node:buffer';

export interface DecodedText {
  readonly text: string;
  /** The encoding actually used (WHATWG name, e.g. `utf-8`, `shift_jis`). */
  readonly charset: string;
}

const META_PRESCAN_BYTES = 4096;
const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i;

/** Reads the `charset` parameter of a Content-Type header value; null when absent. */
export function charsetFromContentType(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return m ? m[1]!.trim() : null;
}

/**
 * windows-1252's bytes 0x80-0x9F (WHATWG index): curly quotes, dashes, €, ‰, Œ... Node 20's
 * TextDecoder reads every label of windows-1252 (`latin1`, `iso-8859-1`, `ascii`, ...) as
 * ISO-8859-1 and returns C1 control characters for them, so they are mapped here.
 */
const CP1252_HIGH = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
const C1 = /[\u0080-\u009f]/g;

function decodeWindows1252(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return text.replace(C1, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

/**
 * Decodes with the declared decoder `dec`, windows-1252 by the WHATWG index (see CP1252_HIGH);
 * but bytes that are valid UTF-8 and hold a non-ASCII character are UTF-8 whatever a legacy
 * label says. Servers that send `charset=ISO-8859-1` by default over UTF-8 pages, and pages
 * re-saved as UTF-8 under their old `<meta charset=Shift_JIS>`, are common; legacy text that
 * happens to be valid UTF-8 is not (é as 0xC3 0xA9 would have to read "Ã©").
 */
function decodeDeclared(dec: TextDecoder, bytes: Uint8Array): DecodedText {
  if (dec.encoding !== 'utf-8' && !dec.encoding.startsWith('utf-16') && !isAscii(bytes) && isUtf8(bytes)) {
    return { text: new TextDecoder('utf-8').decode(bytes), charset: 'utf-8' };
  }
  return decodeWith(dec, bytes);
}

/** Decodes with `dec`, windows-1252 by the WHATWG index (see CP1252_HIGH). */
function decodeWith(dec: TextDecoder, bytes: Uint8Array): DecodedText {
  return { text: dec.encoding === 'windows-1252' ? decodeWindows1252(bytes) : dec.decode(bytes), charset: dec.encoding };
}

/** Returns a TextDecoder for a label, or null when the label is unknown. */
function decoderFor(label: string, fatal = false): TextDecoder | null {
  try {
    return new TextDecoder(label.trim().toLowerCase(), { fatal });
  } catch {
    return null;
  }
}

/**
 * Decodes page bytes to text. `headerCharset` is the Content-Type `charset` (or null);
 * `isHtml` enables the `<meta>` prescan.
 */
export function decodeBody(bytes: Uint8Array, headerCharset: string | null, isHtml: boolean): DecodedText {
  const bom = sniffBom(bytes);
  if (bom) return { text: new TextDecoder(bom).decode(bytes), charset: bom };
  if (headerCharset) {
    const dec = decoderFor(headerCharset);
    if (dec) return decodeDeclared(dec, bytes);
  }
  if (isHtml) {
    const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, META_PRESCAN_BYTES)).toString('latin1');
    const m = META_CHARSET.exec(head);
    if (m) {
      const dec = decoderFor(m[1]!);
      // A page cannot declare UTF-16 in an ASCII-compatible <meta>: the HTML standard reads it as UTF-8.
      if (dec && !dec.encoding.startsWith('utf-16')) return decodeDeclared(dec, bytes);
    }
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), charset: 'utf-8' };
  } catch {
    const legacy = sniffLegacy(bytes);
    if (legacy !== null) return legacy;
    return { text: decodeWindows1252(bytes), charset: 'windows-1252' };
  }
}

/** Bytes read by the sniff: enough text for stable shares, bounded work on big pages. */
const SNIFF_BYTES = 64 * 1024;
/** Below this many bytes >= 0x80 there is too little to tell. */
const SNIFF_MIN_HIGH = 16;

/**
 * Guesses a legacy double-byte encoding of undeclared, non-UTF-8 bytes, or null (then
 * windows-1252). Rules an encoding expert would state:
 *
 * - Japanese text is one third or more kana. Decoded as Shift_JIS or EUC-JP (fatal decoder: no
 *   invalid sequence), kana are >= 20% of the non-ASCII characters, and Shift_JIS bytes read as
 *   anything else are not; GBK text read as Shift_JIS turns into half-width katakana (single
 *   bytes A1-DF), which real pages rarely use.
 * - Chinese in GBK/GB2312 (and Big5) is pairs of bytes >= 0x80: almost no byte >= 0x80 stands
 *   alone before an ASCII byte, while in windows-1252 or ISO-8859 text most accented letters do.
 *   GB2312 trail bytes are A1-FE; Big5 puts ~40% of its trail bytes in 40-7E, so many such trails
 *   mean Big5.
 * - Korean EUC-KR cannot be told from GBK by these counts and is read as GBK; a page in it must
 *   declare its charset.
 */
export function sniffLegacy(bytes: Uint8Array): DecodedText | null {
  const n = Math.min(bytes.length, SNIFF_BYTES);
  let high = 0;
  let lone = 0;
  let pairs = 0;
  let lowTrail = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b < 0x80) continue;
    high++;
    const next = i + 1 < n ? bytes[i + 1]! : 0x80;
    if (b >= 0x81 && b <= 0xfe && next >= 0x40 && next <= 0xfe && next !== 0x7f) {
      pairs++;
      if (next < 0x80) lowTrail++;
      else high++;
      i++;
    } else {
      lone++;
    }
  }
  if (high < SNIFF_MIN_HIGH) return null;
  const sample = bytes.subarray(0, n);
  for (const label of ['shift_jis', 'euc-jp']) {
    const text = fatalDecode(label, sample, n < bytes.length);
    if (text === null) continue;
    let nonAscii = 0;
    let kana = 0;
    let halfwidth = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) continue;
      nonAscii++;
      if (c >= 0x3041 && c <= 0x30ff) kana++;
      else if (c >= 0xff61 && c <= 0xff9f) halfwidth++;
    }
    if (nonAscii > 0 && kana / nonAscii >= 0.2 && halfwidth / nonAscii < 0.05) return decodeAs(label, bytes);
  }
  // Double-byte Chinese: nearly every high byte sits in a pair.
  if (pairs === 0 || lone / high > 0.1) return null;
  if (lowTrail / pairs > 0.2 && fatalDecode('big5', sample, n < bytes.length) !== null) return decodeAs('big5', bytes);
  return decodeAs('gb18030', bytes);
}

/** The text, or null when `bytes` hold an invalid sequence (a cut sequence at the end of a sample is fine). */
function fatalDecode(label: string, bytes: Uint8Array, cut: boolean): string | null {
  try {
    return new TextDecoder(label, { fatal: true }).decode(bytes, { stream: cut });
  } catch {
    return null;
  }
}

function decodeAs(label: string, bytes: Uint8Array): DecodedText {
  return decodeWith(new TextDecoder(label), bytes);
}

function sniffBom(b: Uint8Array): string | null {
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  return null;
}
