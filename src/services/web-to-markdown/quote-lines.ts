/** Block quotes of the renderer (render.ts): the frame a quote renders into and its `> ` lines, each written once. */

/**
 * A blockquote being rendered: its blocks, and the quotes nested straight in it (pushed into
 * `blocks` itself, not into a list item or other block of it) by their index in `blocks`, where
 * NESTED_QUOTE holds their place. Each quote used to prefix the lines of its finished Markdown,
 * its nested quotes' lines included, so 90 nested quotes went over the innermost text 90 times
 * (4.2 s for 1 MiB); the outermost quote now writes every line once with its full prefix.
 */
export interface QuoteFrame {
  readonly blocks: string[];
  readonly nested: Map<number, QuoteFrame>;
}
/** Holds a nested quote's place in its enclosing quote's blocks; never in the output (not empty, so the quote is not empty). */
export const NESTED_QUOTE = '>';

/**
 * The lines of a quote `depth` levels deep: its blocks' lines behind `> ` once per level, a
 * blank line between blocks and each empty line behind `> ` once per enclosing level and a last
 * `>` (what prefixing the Markdown once per level gives: `>` for a blank line, `> > x` for x).
 */
export function quoteLines(frame: QuoteFrame, depth: number, lines: string[]): void {
  const prefix = '> '.repeat(depth);
  const blank = prefix.slice(0, -1);
  for (let i = 0; i < frame.blocks.length; i++) {
    if (i > 0) lines.push(blank);
    const nested = frame.nested.get(i);
    if (nested !== undefined) quoteLines(nested, depth + 1, lines);
    else for (const l of frame.blocks[i]!.split('\n')) lines.push(l === '' ? blank : prefix + l);
  }
}
