/**
 * The tree rules of htmlparser2's Parser (HTML mode) that the tree events (html-events.ts) apply:
 * raw-text and RCDATA bodies, implied closes, void elements, foreign content and SVG name casing,
 * with one bit map so a tag name is looked up once.
 */

/**
 * Elements whose body the tokenizer reads as raw text (RAW_TEXT: no tags, no character references)
 * or as RCDATA (no tags, references decoded), unless they open in SVG/MathML.
 */
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
const RCDATA = new Set(['title', 'textarea']);

// From htmlparser2 12.0.0 Parser.js (HTML mode).
const formTags = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const pTag = new Set(['p']);
const headingTags = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const tableSectionTags = new Set(['thead', 'tbody']);
const ddtTags = new Set(['dd', 'dt']);
const rtpTags = new Set(['rt', 'rp']);
export const OPEN_IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])], ['th', new Set(['th'])], ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])], ['a', new Set(['a'])], ['li', new Set(['li'])], ['p', pTag],
  ['h1', headingTags], ['h2', headingTags], ['h3', headingTags], ['h4', headingTags], ['h5', headingTags], ['h6', headingTags],
  ['select', formTags], ['input', formTags], ['output', formTags], ['button', formTags], ['datalist', formTags], ['textarea', formTags],
  ['option', new Set(['option'])], ['optgroup', new Set(['optgroup', 'option'])], ['dd', ddtTags], ['dt', ddtTags],
  ['address', pTag], ['article', pTag], ['aside', pTag], ['blockquote', pTag], ['details', pTag], ['div', pTag], ['dl', pTag],
  ['fieldset', pTag], ['figcaption', pTag], ['figure', pTag], ['footer', pTag], ['form', pTag], ['header', pTag], ['hr', pTag],
  ['main', pTag], ['nav', pTag], ['ol', pTag], ['pre', pTag], ['section', pTag], ['table', pTag], ['ul', pTag],
  ['rt', rtpTags], ['rp', rtpTags], ['tbody', tableSectionTags], ['tfoot', tableSectionTags],
]);
/** The Parser's void elements (a superset of parse-rules.ts's VOID_TAGS). */
export const PARSER_VOID = new Set([
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link',
  'meta', 'param', 'source', 'track', 'wbr',
]);
const FOREIGN_ELEMENTS = new Set(['math', 'svg']);
const INTEGRATION_ELEMENTS = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignObject', 'desc', 'title']);
/**
 * The sets above as bits of one map, so an open tag looks its name up once (and a close tag or a
 * pop once) instead of in up to six sets.
 */
export const RULE_RAW = 1;
export const RULE_RCDATA = 2;
export const RULE_VOID = 4;
export const RULE_FOREIGN = 8;
export const RULE_INTEGRATION = 16;
export const RULE_IMPLIES = 32;
const TAG_RULES = new Map<string, number>();
for (const [names, bit] of [
  [RAW_TEXT, RULE_RAW], [RCDATA, RULE_RCDATA], [PARSER_VOID, RULE_VOID], [FOREIGN_ELEMENTS, RULE_FOREIGN],
  [INTEGRATION_ELEMENTS, RULE_INTEGRATION], [OPEN_IMPLIES_CLOSE.keys(), RULE_IMPLIES],
] as const) {
  for (const name of names) TAG_RULES.set(name, (TAG_RULES.get(name) ?? 0) | bit);
}
export function rulesOf(name: string): number {
  return TAG_RULES.get(name) ?? 0;
}
export const SVG_NAMES = new Map(
  [
    'altGlyph', 'altGlyphDef', 'altGlyphItem', 'animateColor', 'animateMotion', 'animateTransform', 'clipPath', 'feBlend',
    'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix', 'feDiffuseLighting', 'feDisplacementMap',
    'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA', 'feFuncB', 'feFuncG', 'feFuncR', 'feGaussianBlur', 'feImage',
    'feMerge', 'feMergeNode', 'feMorphology', 'feOffset', 'fePointLight', 'feSpecularLighting', 'feSpotLight', 'feTile',
    'feTurbulence', 'foreignObject', 'glyphRef', 'linearGradient', 'radialGradient', 'textPath',
  ].map((n) => [n.toLowerCase(), n]),
);
