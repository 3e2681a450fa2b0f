/**
 * What the structure passes (structure.ts) mark each line as, so that one pass leaves alone what
 * another produced or must not touch.
 */

/** A line with text on it: any character but white space (Unicode blanks too). */
export const NON_BLANK_RE = /\S/;

/** What a line is, for the passes that must not touch it (or that produced it). */
export const enum Kind {
  Prose = 0,
  Blank,
  Table,
  Json,
  Columns,
  Kept, // indented code, answer options: verbatim, never part of a repeated block
}
