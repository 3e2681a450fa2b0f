/**
 * The surface clean-up of `safe`: decorative HTML tags, emphasis markers, split contractions,
 * invisible characters, space runs and trailing spaces.
 */
import { isLetter } from './words.ts';

/** Attribute-less HTML tags that only decorate text: removed in `safe`. Block tags leave a line break. */
export const INLINE_TAGS = ['b', 'i', 'u', 'em', 'strong', 'span', 'small', 'big', 'font', 'mark', 'abbr', 'cite', 'strike', 'ins', 'tt', 'nobr'];
export const BLOCK_TAGS = ['p', 'div', 'section', 'article', 'header', 'footer', 'main', 'aside', 'body', 'html', 'center', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
export const INLINE_TAG_RE = new RegExp(`</?(?:${INLINE_TAGS.join('|')})\\s*>`, 'gi');
export const BLOCK_TAG_RE = new RegExp(`[ \\t]*</?(?:${BLOCK_TAGS.join('|')})\\s*>[ \\t]*`, 'gi');
export const BR_RE = /[ \t]*<br\s*\/?>[ \t]*/gi;

/**
 * `**bold**`, `__bold__`, `*em*`: the markers carry no content. Underscore forms never touch identifiers
 * (protected before). `**` against a digit (or a masked number) is a power (`2**10 + 3**2`), not emphasis.
 */
export const EMPHASIS_RE = /(?<![0-9\x0F])\*\*(?=[^\s*])([^*\n]{0,300}?[^\s*])\*\*(?![0-9\x0E])|(?<![A-Za-z0-9*\\])\*(?=[A-Za-z])([A-Za-z][^*\n]{0,300}?[^\s*])\*(?![A-Za-z0-9*])/g;

/**
 * A contraction written with its clitic split off, as tokenised transcripts (ICSI, Penn Treebank)
 * do: "it 's", "I 've", "do n't" → "it's", "I've", "don't" (safe: the words and the negation are
 * the same; the split form costs one or two extra tokens each time).
 */
// Starts with the letter, not a lookbehind: about 7x faster; the lookahead consumes no clitic, so
// a chain ("do n't 've") joins in one pass. Replace with '$1'.
// The same spaces as SPACE_RUN_RE (a no-break space run collapses to a space, which would then join
// on the next pass: the retention checker must see the same join).
export const SPLIT_CLITIC_RE = /([A-Za-z])[ \t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]+(?=(?:['’](?:s|ve|re|ll|d|m)|n['’]t)\b(?![-'’\w]))/g;

const CLITIC_AT_RE = /(?:['’](?:s|ve|re|ll|d|m)|n['’]t)\b(?![-'’\w])/y;
const isHorizontalSpace = (c: number): boolean => c === 32 || c === 9 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000;

/**
 * `s.replace(SPLIT_CLITIC_RE, '$1')` with the same result (test/compress-core.test.ts compares
 * them), found from the apostrophes instead of trying the pattern at every letter: for each
 * clitic (`'s`, or `n't` from its "n"), the spaces right before it go when a letter precedes them.
 */
export function joinClitics(s: string): string {
  let out = '';
  let copied = 0;
  // The next ' and the next ’, each searched for again only when the walk has passed it.
  let straight = s.indexOf("'");
  let curly = s.indexOf('’');
  while (straight !== -1 || curly !== -1) {
    let k: number;
    if (curly === -1 || (straight !== -1 && straight < curly)) {
      k = straight;
      straight = s.indexOf("'", k + 1);
    } else {
      k = curly;
      curly = s.indexOf('’', k + 1);
    }
    // The clitic starts at the apostrophe, or at the "n" of "n't".
    const c = s.charCodeAt(k - 1) === 110 /* n */ && s.charCodeAt(k + 1) === 116 /* t */ ? k - 1 : k;
    let j = c;
    while (j > copied && isHorizontalSpace(s.charCodeAt(j - 1))) j--;
    if (j === c || j === 0 || !isLetter(s.charCodeAt(j - 1))) continue;
    CLITIC_AT_RE.lastIndex = c;
    if (!CLITIC_AT_RE.test(s)) continue;
    out += s.slice(copied, j);
    copied = c;
  }
  return copied === 0 ? s : out + s.slice(copied);
}

/**
 * `s.replace(/[ \t]+$/gm, '')`: spaces and tabs at line ends removed, found from the line breaks
 * (a regex tries every blank of the text). Text with other line terminators takes the regex.
 */
export function trimLineEnds(s: string): string {
  if (s.indexOf('\r') !== -1 || s.indexOf('\u2028') !== -1 || s.indexOf('\u2029') !== -1) return s.replace(/[ \t]+$/gm, '');
  let out = '';
  let copied = 0;
  for (let nl = s.indexOf('\n'); ; nl = s.indexOf('\n', nl + 1)) {
    const end = nl === -1 ? s.length : nl;
    let j = end;
    while (j > 0 && (s.charCodeAt(j - 1) === 32 || s.charCodeAt(j - 1) === 9)) j--;
    if (j < end) {
      out += s.slice(copied, j);
      copied = end;
    }
    if (nl === -1) break;
  }
  return copied === 0 ? s : out + s.slice(copied);
}

/** Invisible characters that never carry meaning in a prompt (ZWJ/ZWNJ are kept: emoji and Indic scripts need them). */
export const INVISIBLE_RE = /[\u200B\u2060\uFEFF\u00AD]/g;
/**
 * A run of two or more horizontal spaces of any kind. A single no-break or thin space stays: it
 * may bind a number to its unit ("4\u00A0in"). Spaces after a `>` stay: a quoted line's
 * indentation (code quoted in a reply, `>     for m in meshes:`).
 */
export const SPACE_RUN_RE = /([^\s\u0002\u0003\u0004>])[ \t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]{2,}/g;
