/**
 * Normalisation before matching, in one linear pass per view. Every view keeps an offset map
 * (`map[i]` = index in the original text of the character that produced view[i]; `map[len]` =
 * original length) so findings always point into the caller's `input_text`.
 *
 * - `light`: invisible characters removed, NFKC per character; case and layout kept. PII,
 *   secrets, URLs, delimiters and encoded runs are matched here.
 * - `fold`: `light` plus lower case, diacritics dropped (NFKD minus combining marks), homoglyphs
 *   folded to Latin (UTS #39 confusables, the Cyrillic/Greek/IPA subset seen in attacks),
 *   leetspeak folded inside words, spaced-out letters joined ("i g n o r e"), whitespace
 *   collapsed. The lexical rule families read this view.
 * - invisible ranges: zero-width and bidi controls, runs of variation selectors, and Unicode tag
 *   characters (U+E0000 block), whose ASCII payload is decoded into `hidden` for a rescan.
 */

export type InvisibleKind = 'zero_width' | 'bidi' | 'tag' | 'variation_selector';

export interface InvisibleRange {
  readonly kind: InvisibleKind;
  readonly start: number;
  readonly end: number;
}

export interface View {
  readonly text: string;
  readonly map: Int32Array;
}

export interface Normalized {
  readonly light: View;
  readonly fold: View;
  readonly invisible: InvisibleRange[];
  /** ASCII text carried by tag characters, per contiguous run, with the run's original range. */
  readonly hidden: { text: string; start: number; end: number }[];
}

const ZERO_WIDTH = new Set([0x00ad, 0x034f, 0x061c, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e, 0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x3164, 0xfeff, 0xffa0]);
const BIDI = new Set([0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);

function isVariationSelector(cp: number): boolean {
  return (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

/** Leetspeak digits and symbols, folded only next to a letter ("1gn0re" -> "ignore", "5 apples" kept). */
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', $: 's' };
const LEET_CODE: number[] = [];
for (const [k, v] of Object.entries(LEET)) LEET_CODE[k.charCodeAt(0)] = v.charCodeAt(0);

/** Homoglyphs NFKD leaves alone: Cyrillic, Greek, IPA and small capitals that look like Latin letters. */
const CONFUSABLES: Record<string, string> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', ѕ: 's', і: 'i', ї: 'i', ј: 'j', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l', ɡ: 'g', ո: 'n', ս: 'u',
  α: 'a', β: 'b', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y', ω: 'w', ϲ: 'c', ϳ: 'j',
  ı: 'i', ł: 'l', ø: 'o', đ: 'd', ħ: 'h', ß: 'ss', æ: 'ae', œ: 'oe', þ: 'th', ŋ: 'n',
  ᴀ: 'a', ʙ: 'b', ᴄ: 'c', ᴅ: 'd', ᴇ: 'e', ɢ: 'g', ʜ: 'h', ɪ: 'i', ᴊ: 'j', ᴋ: 'k', ʟ: 'l', ᴍ: 'm', ɴ: 'n', ᴏ: 'o', ᴘ: 'p', ʀ: 'r', ꜱ: 's', ᴛ: 't', ᴜ: 'u', ᴠ: 'v', ᴡ: 'w', ʏ: 'y', ᴢ: 'z',
  '‘': "'", '’': "'", '“': '"', '”': '"', '‐': '-', '‑': '-', '–': '-', '—': '-',
};

/** Fold of one non-ASCII character: homoglyph table, else NFKD minus combining marks, lower case. */
function foldChar(raw: string, cp: number): string {
  if (isSpaceCode(cp)) return ' ';
  const direct = CONFUSABLES[raw.toLowerCase()];
  if (direct !== undefined) return direct;
  const nfkd = raw.normalize('NFKD').toLowerCase();
  let out = '';
  for (let k = 0; k < nfkd.length; ) {
    const c = nfkd.codePointAt(k)!;
    const s = c > 0xffff ? nfkd.slice(k, k + 2) : nfkd[k]!;
    k += s.length;
    if (!isCombiningMark(c)) out += CONFUSABLES[s] ?? s;
  }
  return out;
}

/**
 * Light and fold forms of U+0080..U+2FFF (Latin, Greek, Cyrillic, punctuation, letterlike and
 * fullwidth-free blocks), computed once at module load: read-only lookup tables, so the common
 * non-ASCII characters (curly quotes, dashes, accented letters) cost no ICU call per request.
 * Invisible characters in the range are handled before the table is consulted.
 */
const TABLE_END = 0x3000;
const LIGHT_TABLE: readonly string[] = Array.from({ length: TABLE_END }, (_, cp) => (cp < 128 ? '' : String.fromCharCode(cp).normalize('NFKC')));
const FOLD_TABLE: readonly string[] = Array.from({ length: TABLE_END }, (_, cp) => (cp < 128 ? '' : foldChar(String.fromCharCode(cp), cp)));

/**
 * Light and fold forms of a character from U+3000 on (CJK, kana, Hangul, fullwidth forms, emoji),
 * remembered per code point: both are pure functions of it, and such text repeats its characters,
 * where two Unicode normalisations per character made a 2 KB Korean text ~3x slower to screen
 * than a Latin one. Bounded: emptied when full.
 */
const WIDE_FORMS = new Map<number, readonly [string, string]>();
const WIDE_FORMS_MAX = 16_384;
function wideForms(raw: string, cp: number): readonly [string, string] {
  let forms = WIDE_FORMS.get(cp);
  if (forms === undefined) {
    if (WIDE_FORMS.size >= WIDE_FORMS_MAX) WIDE_FORMS.clear();
    forms = [raw.normalize('NFKC'), foldChar(raw, cp)];
    WIDE_FORMS.set(cp, forms);
  }
  return forms;
}

function isCombiningMark(cp: number): boolean {
  return (cp >= 0x0300 && cp <= 0x036f) || (cp >= 0x1ab0 && cp <= 0x1aff) || (cp >= 0x1dc0 && cp <= 0x1dff) || (cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0xfe20 && cp <= 0xfe2f);
}

function isSpaceCode(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0x1680;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** A letter for tokenising the fold view: ASCII letters/digits and non-ASCII letters (not punctuation blocks). */
export function isWordCode(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
  if (c >= 0x2000 && c <= 0x2bff) return false;
  if (c >= 0x3000 && c <= 0x303f) return false;
  if (c >= 0xfe30 && c <= 0xfe4f) return false;
  return c >= 0xc0 && c !== 0xd7 && c !== 0xf7;
}

/** Code units with their origins, the intermediate form of the fold view. */
interface Codes {
  readonly codes: Uint16Array;
  readonly map: Int32Array;
  readonly len: number;
}

function toView(c: Codes, originalLength: number): View {
  const map = c.map.length > c.len ? c.map : Int32Array.from({ length: c.len + 1 }, (_, i) => c.map[i] ?? 0);
  map[c.len] = originalLength;
  const text = Buffer.from(c.codes.buffer, c.codes.byteOffset, c.len * 2).toString('utf16le');
  return { text, map: map.subarray(0, c.len + 1) };
}

/** Growable UTF-16 builder with an Int32 offset map (code units in a Uint16Array, no per-char strings). */
class ViewBuilder {
  #codes: Uint16Array;
  #map: Int32Array;
  #len = 0;
  constructor(capacity: number) {
    const cap = Math.max(16, capacity + 1);
    this.#codes = new Uint16Array(cap);
    this.#map = new Int32Array(cap);
  }
  get length(): number {
    return this.#len;
  }
  lastCode(): number {
    return this.#len === 0 ? -1 : this.#codes[this.#len - 1]!;
  }
  #grow(extra: number): void {
    if (this.#len + extra + 1 <= this.#map.length) return;
    const cap = Math.max(this.#map.length * 2, this.#len + extra + 16);
    const codes = new Uint16Array(cap);
    codes.set(this.#codes);
    this.#codes = codes;
    const map = new Int32Array(cap);
    map.set(this.#map);
    this.#map = map;
  }
  pushCode(code: number, origin: number): void {
    if (this.#len + 2 > this.#map.length) this.#grow(1);
    this.#codes[this.#len] = code;
    this.#map[this.#len] = origin;
    this.#len++;
  }
  push(s: string, origin: number): void {
    this.#grow(s.length);
    for (let k = 0; k < s.length; k++) {
      this.#codes[this.#len] = s.charCodeAt(k);
      this.#map[this.#len] = origin;
      this.#len++;
    }
  }
  /** The code units and map built so far (no copy), for the second fold pass. */
  raw(): Codes {
    return { codes: this.#codes, map: this.#map, len: this.#len };
  }
  finish(originalLength: number): View {
    this.#map[this.#len] = originalLength;
    // UTF-16LE bytes of the code-unit array decode to the string in one native call.
    const text = Buffer.from(this.#codes.buffer, this.#codes.byteOffset, this.#len * 2).toString('utf16le');
    return { text, map: this.#map.subarray(0, this.#len + 1) };
  }
}

/** Identity view of an ASCII text (no invisible characters can occur in it). */
function identityView(src: string): View {
  const map = new Int32Array(src.length + 1);
  for (let i = 0; i <= src.length; i++) map[i] = i;
  return { text: src, map };
}

function isAscii(src: string): boolean {
  for (let i = 0; i < src.length; i++) if (src.charCodeAt(i) > 127) return false;
  return true;
}

/**
 * Builds both views of `src`. Linear in `src.length`: each code point is visited once per pass and
 * per-character Unicode normalisation is bounded by the (small) decomposition length.
 */
export function normalize(src: string): Normalized {
  if (isAscii(src)) return { light: identityView(src), fold: joinAndCollapse(foldAscii(src), src.length), invisible: [], hidden: [] };

  const invisible: InvisibleRange[] = [];
  const hidden: { text: string; start: number; end: number }[] = [];
  const light = new ViewBuilder(src.length);
  const fold1 = new ViewBuilder(src.length);
  let tagText = '';
  let tagStart = -1;
  let tagEnd = -1;
  let vsStart = -1;
  let vsCount = 0;
  let vsEnd = -1;

  const flushTag = (): void => {
    if (tagStart >= 0) {
      invisible.push({ kind: 'tag', start: tagStart, end: tagEnd });
      if (tagText !== '') hidden.push({ text: tagText, start: tagStart, end: tagEnd });
      tagText = '';
      tagStart = -1;
    }
  };
  const flushVs = (): void => {
    // One selector after an emoji is ordinary text; runs are a known smuggling channel.
    if (vsStart >= 0 && vsCount >= 3) invisible.push({ kind: 'variation_selector', start: vsStart, end: vsEnd });
    vsStart = -1;
    vsCount = 0;
  };

  for (let i = 0; i < src.length; ) {
    const cp = src.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const at = i;
    i += width;
    if (cp >= 0xe0000 && cp <= 0xe007f) {
      if (tagStart < 0) tagStart = at;
      tagEnd = i;
      const ascii = cp - 0xe0000;
      if (ascii >= 0x20 && ascii < 0x7f) tagText += String.fromCharCode(ascii);
      continue;
    }
    if (tagStart >= 0) flushTag();
    if (isVariationSelector(cp)) {
      if (vsStart < 0) vsStart = at;
      vsCount++;
      vsEnd = i;
      continue;
    }
    if (vsStart >= 0) flushVs();
    if (cp < 128) {
      light.pushCode(cp, at);
      if (isSpaceCode(cp)) fold1.pushCode(32, at);
      else if (cp >= 65 && cp <= 90) fold1.pushCode(cp + 32, at);
      else {
        const leet = LEET_CODE[cp];
        if (leet !== undefined) {
          const prev = fold1.lastCode();
          const next = i < src.length ? src.charCodeAt(i) : 0;
          fold1.pushCode((prev >= 97 && prev <= 122) || isAsciiLetter(next) ? leet : cp, at);
        } else fold1.pushCode(cp, at);
      }
      continue;
    }
    if (ZERO_WIDTH.has(cp) || BIDI.has(cp)) {
      const kind: InvisibleKind = BIDI.has(cp) ? 'bidi' : 'zero_width';
      const last = invisible[invisible.length - 1];
      if (last !== undefined && last.kind === kind && last.end === at) (last as { end: number }).end = i;
      else invisible.push({ kind, start: at, end: i });
      continue;
    }
    if (cp < TABLE_END) {
      light.push(LIGHT_TABLE[cp]!, at);
      fold1.push(FOLD_TABLE[cp]!, at);
      continue;
    }
    const forms = wideForms(width === 2 ? src.slice(at, i) : src[at]!, cp);
    light.push(forms[0], at);
    fold1.push(forms[1], at);
  }
  flushTag();
  flushVs();
  const lightView = light.finish(src.length);
  return { light: lightView, fold: joinAndCollapse(fold1.raw(), src.length), invisible, hidden };
}

/** Fold pass 1 for pure ASCII: lower case, whitespace to ' ', leetspeak next to letters. One tight loop. */
function foldAscii(src: string): Codes {
  const n = src.length;
  const codes = new Uint16Array(n + 1);
  const map = new Int32Array(n + 1);
  let prev = 0;
  for (let i = 0; i < n; i++) {
    let c = src.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    else if (c === 32 || (c >= 9 && c <= 13)) c = 32;
    else if (c === 48 || c === 49 || c === 51 || c === 52 || c === 53 || c === 55 || c === 56 || c === 64 || c === 36) {
      const next = i + 1 < n ? src.charCodeAt(i + 1) : 0;
      if ((prev >= 97 && prev <= 122) || (next >= 97 && next <= 122) || (next >= 65 && next <= 90)) c = LEET_CODE[c]!;
    }
    codes[i] = c;
    map[i] = i;
    prev = c;
  }
  return { codes, map, len: n };
}

function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}

const SPACED_SEPARATORS = new Set([32, 46, 45, 95, 42, 44, 124, 47]); // space . - _ * , | /

/**
 * Second fold pass: joins runs of at least three single letters separated by one separator
 * ("i g n o r e", "i.g.n.o.r.e") and collapses whitespace. A double separator ends the run, so
 * "i g n o r e  a l l" reads "ignore all".
 */
function joinAndCollapse(input: Codes, originalLength: number): View {
  const s = input.codes;
  const src = input.map;
  const n = input.len;
  const codes = new Uint16Array(n + 1);
  const map = new Int32Array(n + 1);
  let len = 0;
  const isSingle = (j: number): boolean => j < n && isLower(s[j]!) && (j === 0 || !isWordCode(s[j - 1]!)) && (j + 1 >= n || !isWordCode(s[j + 1]!));
  let i = 0;
  let lastSpace = true;
  while (i < n) {
    const c = s[i]!;
    if (c >= 97 && c <= 122 && isSingle(i)) {
      // Count the run of singles with exactly one separator between them.
      let j = i;
      let count = 1;
      while (j + 2 < n && SPACED_SEPARATORS.has(s[j + 1]!) && isSingle(j + 2)) {
        j += 2;
        count++;
      }
      if (count >= 3) {
        for (let k = i; k <= j; k += 2) {
          codes[len] = s[k]!;
          map[len++] = src[k]!;
        }
        lastSpace = false;
        i = j + 1;
        continue;
      }
    }
    if (c === 32) {
      if (!lastSpace) {
        codes[len] = 32;
        map[len++] = src[i]!;
      }
      lastSpace = true;
    } else {
      codes[len] = c;
      map[len++] = src[i]!;
      lastSpace = false;
    }
    i++;
  }
  return toView({ codes, map, len }, originalLength);
}

/** Maps a [start, end) range of a view back to the original text. */
export function toOriginal(view: View, start: number, end: number): { start: number; end: number } {
  const s = view.map[Math.max(0, Math.min(start, view.map.length - 1))]!;
  // The end is exclusive: take the origin of the last character of the range, then step past it.
  if (end <= start) return { start: s, end: s };
  const lastOrigin = view.map[Math.min(end - 1, view.map.length - 1)]!;
  const after = view.map[Math.min(end, view.map.length - 1)]!;
  return { start: s, end: after > lastOrigin ? after : lastOrigin + 1 };
}
