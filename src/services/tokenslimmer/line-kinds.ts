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

/**
 * A line of unfenced code: an SQL clause opening with its keyword in capitals (`JOIN orders o ON
 * …`, `GROUP BY p.name`), or a line that ends a statement or opens or closes a block (`…;`, `… {`,
 * `}`, `});`). Such a line said again is the same clause of another query or function, not a
 * header or footer pasted twice: no level drops it as a repeat (two queries of a text-to-SQL
 * prompt share their joins; without them the second one uses aliases it never defines).
 */
const CODE_LINE_RE =
  /^[ \t]*(?:(?:SELECT|FROM|(?:(?:LEFT|RIGHT|INNER|OUTER|FULL|CROSS|NATURAL)[ \t]+)+JOIN|JOIN|WHERE|AND|OR|ON|GROUP[ \t]+BY|ORDER[ \t]+BY|PARTITION[ \t]+BY|HAVING|LIMIT|OFFSET|UNION(?:[ \t]+ALL)?|INSERT[ \t]+INTO|UPDATE|SET|DELETE[ \t]+FROM|VALUES|RETURNING|WITH)[ \t]|[}\])][ \t]*[;,)]*[ \t]*$)|[;{][ \t]*$/;

export const isCodeLine = (line: string): boolean => CODE_LINE_RE.test(line);

/**
 * A line of a directory or outline tree as `tree` prints it (`│   ├── ci.yml`, ASCII `|   |-- ci.yml`,
 * `` `-- src``, Windows `+---docs`): the spaces after each `│` are the nesting, so the line stays
 * verbatim (no column pass, no space collapse). A pipe table's delimiter row (`|---|`) is none.
 */
export const TREE_LINE_RE = /^[ \t]*(?:[│┃|][ \t]+)*(?:[├└┣┗][─━]+|[|`+\\]-{2,3})[ \t]*[^\s|─━-]/;
