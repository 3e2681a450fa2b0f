/**
 * API-09 core behaviour per level, table-driven: what each level removes, what it must leave
 * alone, and the response arithmetic of slimPrompt.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { compressText, type Level } from '../src/services/tokenslimmer/core.ts';
import { codeBlocks, INLINE_CODE, WORD_ITEM_RE, wordItemRegExp } from '../src/services/tokenslimmer/patterns.ts';
import { NEGATION_WORDS, VERBOSE_PHRASES } from '../src/services/tokenslimmer/phrases.ts';
import {
  collapseRepeats,
  collapseRepeatsUntilStable,
  keepsRepeat,
  REPEAT_RE,
} from '../src/services/tokenslimmer/repeats.ts';
import { VERBOSE_RE } from '../src/services/tokenslimmer/rules.ts';
import { joinClitics, SPLIT_CLITIC_RE, trimLineEnds } from '../src/services/tokenslimmer/surface.ts';
import { checkRetention } from '../src/services/tokenslimmer/retention.ts';
import { slimPrompt } from '../src/services/tokenslimmer/slim.ts';
import { seededText } from './helpers/rng.ts';

type Case = readonly [name: string, input: string, expected: string];

const SAFE: Case[] = [
  ['collapses whitespace runs and trailing spaces', 'a   b\t\tc   \nd', 'a b c\nd'],
  ['collapses blank-line runs to one blank line', 'a\n\n\n\n\nb', 'a\n\nb'],
  ['trims leading and trailing blank lines', '\n\n  \nhello\n\n', 'hello'],
  ['normalises CRLF', 'a\r\nb', 'a\nb'],
  ['removes zero-width characters', 'in\u200Bvisible\uFEFF', 'invisible'],
  ['keeps a single no-break space (binds a number to its unit)', '4\u00A0in', '4\u00A0in'],
  ['keeps a no-break space that opens a line (and leaks no internal mark)', 'a\n\u00A0hello world\n\u2003x', 'a\n\u00A0hello world\n\u2003x'],
  ['removes attribute-less decorative HTML', 'This is <b>bold</b> and <em>em</em>.', 'This is bold and em.'],
  ['turns block tags into line breaks', '<p>One.</p><p>Two.</p>', 'One.\nTwo.'],
  ['turns a link into Markdown, keeping only its href', 'See <a class="btn" href="https://x.io" data-id="7">here</a>.', 'See [here](https://x.io).'],
  ['turns an image into Markdown, keeping src and alt', '<img class="x" src="/a.png" alt="A cat" width="40">', '![A cat](/a.png)'],
  ['removes comments and decodes entities where the text shows HTML', '<!-- nav --><span class="c">Tom &amp; Jerry&nbsp;&mdash; a &lt; b</span>', 'Tom & Jerry — a < b'],
  ['keeps generics, comparisons and unknown tags', 'Use List<T> when a < b; Map<String, b> and <context>x</context>.', 'Use List<T> when a < b; Map<String, b> and <context>x</context>.'],
  ['turns a pretty-printed HTML table (indented rows) into pipe rows, one per line', '<table class="t">\n  <thead>\n    <tr>\n      <th>Year</th>\n      <th>Revenue</th>\n    </tr>\n  </thead>\n  <tbody>\n    <tr>\n      <td>2019</td>\n      <td style="color:red">1,234.5</td>\n    </tr>\n  </tbody>\n</table>', '|Year|Revenue|\n|2019|1,234.5|'],
  ['turns a table drawn with Unicode box characters into a pipe table', '┌──────┬─────────┐\n│ Year │ Revenue │\n├──────┼─────────┤\n│ 2019 │ 1,234.5 │\n│ 2020 │ 1,180.2 │\n└──────┴─────────┘', 'Year|Revenue\n-|-\n2019|1,234.5\n2020|1,180.2'],
  ['reads a fancy_grid header rule (═) as the header rule', '╒══════╤═══════╕\n│ name │ score │\n╞══════╪═══════╡\n│ Ann  │    91 │\n├──────┼───────┤\n│ Bob  │    78 │\n╘══════╧═══════╛', 'name|score\n-|-\nAnn|91\nBob|78'],
  ['leaves a tree listing as it is', 'src\n├── core.ts\n│   └── x.ts\n└── index.ts', 'src\n├── core.ts\n│   └── x.ts\n└── index.ts'],
  ['leaves an ASCII tree listing as it is', 'src\n|-- core\n|   |-- a.ts\n|   `-- b.ts\n`-- index.ts', 'src\n|-- core\n|   |-- a.ts\n|   `-- b.ts\n`-- index.ts'],
  ['shortens the rule row under aligned columns', 'Year     Revenue    Net income\n-------  ---------  ----------\n2019     1,234.5    210.0', 'Year\tRevenue\tNet income\n---\t---\t---\n2019\t1,234.5\t210.0'],
  ['keeps indented HTML after a blank line as code', 'Example:\n\n    <table>\n      <tr><td>1</td></tr>\n    </table>', 'Example:\n\n    <table>\n      <tr><td>1</td></tr>\n    </table>'],
  ['leaves an escaped tag escaped (decoding it would make a tag)', '<p>Write &lt;div&gt; here</p>', 'Write &lt;div> here'],
  ['turns an HTML table into pipe rows', '<table>\n<tr>\n  <th>Name</th>\n  <th>Age</th>\n</tr>\n<tr><td> Ann </td><td>30</td></tr>\n</table>', '|Name|Age|\n|Ann|30|'],
  ['leaves tags inside inline code alone', 'Write `<b>x</b>` here.', 'Write `<b>x</b>` here.'],
  ['strips Markdown emphasis markers', 'A **very** *important* rule', 'A very important rule'],
  ['leaves arithmetic stars alone', '2 * 3 * 4 = 24', '2 * 3 * 4 = 24'],
  ['drops a repeated line', 'Summarize the report in three bullets.\n\nContext here.\n\nSummarize the report in three bullets.', 'Summarize the report in three bullets.\n\nContext here.'],
  ['keeps a line right after its copy (a record said twice: two log lines, two payments)', 'ERROR connection refused by host\nERROR connection refused by host\n03/03 Card payment PRET LONDON 6.45\n03/03 Card payment PRET LONDON 6.45', 'ERROR connection refused by host\nERROR connection refused by host\n03/03 Card payment PRET LONDON 6.45\n03/03 Card payment PRET LONDON 6.45'],
  ['keeps a repeated line that closes a paragraph of other lines (an exemplar\'s answer)', 'Q: Is a whale a mammal?\nA: It nurses its young.\nSo the answer is yes.\n\nQ: Is a bat a mammal?\nA: It nurses its young too.\nSo the answer is yes.', 'Q: Is a whale a mammal?\nA: It nurses its young.\nSo the answer is yes.\n\nQ: Is a bat a mammal?\nA: It nurses its young too.\nSo the answer is yes.'],
  ['keeps ** between numbers (a power, not emphasis)', 'What is 2**10 + 3**2 in Python? It is **not** 1033.', 'What is 2**10 + 3**2 in Python? It is not 1033.'],
  ['keeps short repeated lines (dialogue)', 'Yes.\nNo.\nYes.', 'Yes.\nNo.\nYes.'],
  ['keeps the label of a repeated labelled line (few-shot structure)', 'Q: one\nA: Let us think step by step.\nIt is 1.\n\nQ: two\nA: Let us think step by step.\nIt is 2.\n\nQ: three\nA:', 'Q: one\nA: Let us think step by step.\nIt is 1.\n\nQ: two\nA:\nIt is 2.\n\nQ: three\nA:'],
  ['keeps the spaces of a line a caret line points into (Postgres, Python tracebacks)', 'Failed:\nLINE 3:     o.region_code,\n            ^\n    total = f(a,   b)\n            ^^^^^^^^^^', 'Failed:\nLINE 3:     o.region_code,\n            ^\n    total = f(a,   b)\n            ^^^^^^^^^^'],
  ['keeps the lines of a query said again in another (unfenced SQL: the joins define its aliases)', 'Q: Best sellers?\nSELECT p.name\nFROM order_items oi\nJOIN orders o   ON o.order_id = oi.order_id\nJOIN products p ON p.product_id = oi.product_id\nWHERE o.status <> \'cancelled\';\n\nQ: Revenue per category?\nSELECT p.category\nFROM order_items oi\nJOIN orders o   ON o.order_id = oi.order_id\nJOIN products p ON p.product_id = oi.product_id\nWHERE o.status = \'delivered\';', 'Q: Best sellers?\nSELECT p.name\nFROM order_items oi\nJOIN orders o ON o.order_id = oi.order_id\nJOIN products p ON p.product_id = oi.product_id\nWHERE o.status <> \'cancelled\';\n\nQ: Revenue per category?\nSELECT p.category\nFROM order_items oi\nJOIN orders o ON o.order_id = oi.order_id\nJOIN products p ON p.product_id = oi.product_id\nWHERE o.status = \'delivered\';'],
  ['keeps the open slot of a few-shot prompt with its cue (the last line)', 'Q: one\nA: Let us think step by step.\n\nQ: two\nA: Let us think step by step.', 'Q: one\nA: Let us think step by step.\n\nQ: two\nA: Let us think step by step.'],
  ['keeps the query whole where it repeats a question asked before (the question over the open answer)', 'Question: What share of 2028 debt is Harlow\'s?\nTable: 2028 | 1,120\n\nRows: Harlow 2028 is 1,120.\n\nQuestion: What share of 2028 debt is Harlow\'s?\nGive one decimal place.\nAnswer:', 'Question: What share of 2028 debt is Harlow\'s?\nTable: 2028 | 1,120\n\nRows: Harlow 2028 is 1,120.\n\nQuestion: What share of 2028 debt is Harlow\'s?\nGive one decimal place.\nAnswer:'],
  ['keeps a premise that several examples share (a field beside other premises), said three times', 'Premise: A woman in a red coat walks two dogs on a wet street.\nHypothesis: She is outside.\nLabel: entailment\n\nPremise: A woman in a red coat walks two dogs on a wet street.\nHypothesis: She is at the vet.\nLabel: neutral\n\nPremise: A woman in a red coat walks two dogs on a wet street.\nHypothesis: She is asleep.\nLabel: contradiction\n\nPremise: A man reads a paper on a bench.\nHypothesis: He is reading.\nLabel:', 'Premise: A woman in a red coat walks two dogs on a wet street.\nHypothesis: She is outside.\nLabel: entailment\n\nPremise: A woman in a red coat walks two dogs on a wet street.\nHypothesis: She is at the vet.\nLabel: neutral\n\nPremise: A woman in a red coat walks two dogs on a wet street.\nHypothesis: She is asleep.\nLabel: contradiction\n\nPremise: A man reads a paper on a bench.\nHypothesis: He is reading.\nLabel:'],
  ['keeps a one-word field of a quoted block said again whole, not as a bare label', 'Model: ColdLine CL-86 Duo 780 (dual, 780 L)\nUnit price: 14,950\nQuantity: 6\n\nThanks.\n\n-----Original Message-----\nModel: ColdLine CL-86 Duo 780 (dual, 780 L)\nUnit price: 14,950\nQuantity: 6\n\nThanks.', 'Model: ColdLine CL-86 Duo 780 (dual, 780 L)\nUnit price: 14,950\nQuantity: 6\n\nThanks.\n\n-----Original Message-----\nModel: ColdLine CL-86 Duo 780 (dual, 780 L)\nUnit price: 14,950\nQuantity: 6\n\nThanks.'],
  ['keeps short labelled repeats whole (dialogue turns)', 'Ann: Yes, fine.\nBob: Why?\nAnn: Yes, fine.', 'Ann: Yes, fine.\nBob: Why?\nAnn: Yes, fine.'],
  ['drops a repeated paragraph', 'Rule one.\nRule two here.\nRule three.\n\nOther.\n\nRule one.\nRule two here.\nRule three.', 'Rule one.\nRule two here.\nRule three.\n\nOther.'],
  ['keeps a short paragraph of two lines said again (two records said twice)', 'Ann: 3 days\nBob: 2 days\n\nOther.\n\nAnn: 3 days\nBob: 2 days', 'Ann: 3 days\nBob: 2 days\n\nOther.\n\nAnn: 3 days\nBob: 2 days'],
  ['compacts pretty-printed JSON that round-trips, strings untouched', 'Data:\n{\n  "a": 1,\n  "b": [1, 2, "x  y"],\n  "c": {"d": null}\n}', 'Data:\n{"a":1,"b":[1,2,"x  y"],"c":{"d":null}}'],
  ['compacts JSON after a label and in a json fence', 'Result: {\n  "ok": true\n}\n```json\n[\n  1,\n  2\n]\n```', 'Result: {"ok":true}\n```json\n[1,2]\n```'],
  ['compacts JSON with its numbers and keys as written (1.0, duplicate keys)', 'Data:\n{\n  "a": 1.0,\n  "b": [1, 2, "x  y"]\n}\n{\n  "k": 1,\n  "k": 2\n}', 'Data:\n{"a":1.0,"b":[1,2,"x  y"]}\n{"k":1,"k":2}'],
  ['compacts a one-line JSON value after a label (Python\'s ", " / ": " separators)', 'Observation: {"a": 1, "b": [1, 2], "c": "x  y"}\nTool Args: {"url": {"type": "string"}}', 'Observation: {"a":1,"b":[1,2],"c":"x  y"}\nTool Args: {"url":{"type":"string"}}'],
  ['compacts JSON that opens at the end of a prefixed line, and reads it as JSON again', '<-- {\n  "id": 1,\n  "t": "<b>x</b>"\n}', '<-- {"id":1,"t":"<b>x</b>"}'],
  ['writes escaped printable non-ASCII characters and slashes in JSON strings as the characters', '{\n  "t": "I\\u2019ve no pop \\ud83d\\ude2d",\n  "u": "https:\\/\\/x.io\\/a"\n}', '{"t":"I’ve no pop 😭","u":"https://x.io/a"}'],
  ['keeps the escape of an invisible character in compacted JSON', 'Data:\n{\n  "a": "x\\u200by"\n}', 'Data:\n{"a":"x\\u200by"}'],
  ['leaves look-alikes of JSON after a label or space alone', 'Matrix:\n[1 2 3]\nSee [1] and [2] below.\nSee [docs](https://x.io) first.\nNote: [it\'s fine, really]\nScore: [12, 5]. Done.\nif (a) {\n}', 'Matrix:\n[1 2 3]\nSee [1] and [2] below.\nSee [docs](https://x.io) first.\nNote: [it\'s fine, really]\nScore: [12, 5]. Done.\nif (a) {\n}'],
  ['takes out the spaces repr writes in a one-line Python literal, strings untouched', 'Tool: search, args: {\'q\': {\'title\': \'Q\', \'type\': \'string\'}, \'n\': [1, None, (2,)]}\n<tools> [{\'a\': "it\'s, ok: yes"}] </tools>', 'Tool: search, args: {\'q\':{\'title\':\'Q\',\'type\':\'string\'},\'n\':[1,None,(2,)]}\n<tools> [{\'a\':"it\'s, ok: yes"}] </tools>'],
  ['leaves Python-like text that is no literal alone', 'Call f(x, y) with {\'a\': x}.\nUse {\'a\':1, \'b\': 2} as is.\nSet [\'a\', \'b\'', 'Call f(x, y) with {\'a\': x}.\nUse {\'a\':1, \'b\': 2} as is.\nSet [\'a\', \'b\''],
  ['leaves a program\'s printed list of numbers as printed: in a bare fence, after a label, in a comment', 'Output:\n```\n[1, 2, 3, 4]\n```\nExpected:\n[1, 2, 3, 4]\nprint(a) # [[1, 2], [3, 4]]', 'Output:\n```\n[1, 2, 3, 4]\n```\nExpected:\n[1, 2, 3, 4]\nprint(a) # [[1, 2], [3, 4]]'],
  ['still compacts a bare fence\'s pretty-printed JSON and a one-line object or list of strings', '```\n{\n  "a": [1, 2]\n}\n```\n```\n{"a": 1}\n```\nObservation: {"a": [1, 2]}\nTags: ["x", "y"]', '```\n{"a":[1,2]}\n```\n```\n{"a": 1}\n```\nObservation: {"a":[1,2]}\nTags: ["x","y"]'],
  ['leaves a ```python block alone even when it parses as JSON', '```python\n[\n  1,\n  2\n]\n```', '```python\n[\n  1,\n  2\n]\n```'],
  ['keeps fenced code byte for byte', '```py\nx  =  1   \n```\ntext   here', '```py\nx  =  1   \n```\ntext here'],
  ['keeps indented code byte for byte', 'Code:\n    if  (a)  {}  ', 'Code:\n    if  (a)  {}  '],
  ['reads an indented item right under a list item as a nested item, not code', '* Fruit\n    *   Apples  and   pears\n    1.  Plums  \n\n    *  not  nested\n- Run:\n    npm  ci', '* Fruit\n    * Apples and pears\n    1. Plums\n\n    *  not  nested\n- Run:\n    npm  ci'],
  ['trims table cells and the delimiter row, keeping alignment', '| a  |  b | c |\n|:---|:----:|---:|\n| 1 | `x | y` | z\\|w |', 'a|b|c\n:-|:-:|-:\n1|`x | y`|z\\|w'],
  ['trims a table written without outer pipes', 'Name  | Age\n----- | ---\nAnn   | 30', 'Name|Age\n-|-\nAnn|30'],
  ['keeps an outer pipe at an empty edge cell', '| a | b | c |\n|---|---|---|\n|   | 2 | 3 |\n| 1 | 2 |   |', 'a|b|c\n-|-|-\n||2|3\n1|2||'],
  ['keeps the leading pipe where the first cell could open a list, heading or quote', '| x | y |\n|---|---|\n| - a | 1 |\n| # b | 2 |\n| > c | 3 |\n| 1. d | 4 |\n| 2024 | 5 |', 'x|y\n-|-\n|- a|1\n|# b|2\n|> c|3\n|1. d|4\n2024|5'],
  ['keeps the pipes of a one-column table and of a one-cell row', '| Name |\n|------|\n| Ann  |\n\n| a | b |\n|---|---|\n| x |', '|Name|\n|-|\n|Ann|\n\na|b\n-|-\n|x|'],
  ['turns a MySQL box table into a pipe table, text under it kept apart', 'Result:\n+----+-----------+\n| id | name      |\n+----+-----------+\n|  1 | Ann Lee   |\n|  2 | Bob Stone |\n+----+-----------+\n2 rows in set', 'Result:\nid|name\n-|-\n1|Ann Lee\n2|Bob Stone\n\n2 rows in set'],
  ['turns a grid table with one line per row into a pipe table', '+------+-----+\n| name | age |\n+======+=====+\n| Ann  |  30 |\n+------+-----+\n| Bob  |  41 |\n+------+-----+', 'name|age\n-|-\nAnn|30\nBob|41'],
  ['keeps a grid whose cell runs over two lines as written (a `|` inside a cell stays in it)', '+------+-------+\n| name | note  |\n+======+=======+\n| Ann  | a|b   |\n|      | text  |\n+------+-------+', '+------+-------+\n| name | note  |\n+======+=======+\n| Ann  | a|b   |\n|      | text  |\n+------+-------+'],
  ['keeps a box whose border has other columns than its rows as written', '+----+\n| a | b |\n+----+\n| 1 | 2 |\n+----+', '+----+\n| a | b |\n+----+\n| 1 | 2 |\n+----+'],
  ['reads tabulate\'s "psql" box, whose header rule is org-mode\'s, as a table', '+-----+------+\n| sku | qty  |\n|-----+------|\n| A-1 |   12 |\n| B-2 |    7 |\n+-----+------+', 'sku|qty\n-|-\nA-1|12\nB-2|7'],
  ['turns the rule under an org-mode (tabulate "orgtbl") header into a delimiter row', '| Name   |   Qty |\n|--------+-------|\n| Apple  |     3 |\n| Banana |    12 |', 'Name|Qty\n-|-\nApple|3\nBanana|12'],
  ['keeps an org-mode rule that is not under a header opening the table, or has other columns', '| a | b |\n| 1 | 2 |\n|---+---|\n| 3 | 4 |\n\n| x | y |\n|---+---+---|', '|a|b|\n|1|2|\n|---+---|\n|3|4|\n\n|x|y|\n|---+---+---|'],
  ['turns a psql header rule into a delimiter row', ' id |   name    \n----+-----------\n  1 | Ann Lee\n(1 row)', 'id|name\n-|-\n1|Ann Lee\n(1 row)'],
  ['reads psql rows whose first cell is right-aligned by 4+ spaces as rows, not indented code', ' customer_id |   name    \n-------------+-----------\n       10231 | ACME GmbH\n         982 | Blue Ltd\n(2 rows)', 'customer_id|name\n-|-\n10231|ACME GmbH\n982|Blue Ltd\n(2 rows)'],
  ['compacts JSON after a label in brackets (a role, a log line\'s time), not a bracketed reference or link', '[tool] {\n  "id": 7,\n  "tags": ["a", "b"]\n}\n[tool_call] lookup {"email": "a@b.example", "n": 1}\n[1] see note\n[a] [b](http://x.example)', '[tool] {"id":7,"tags":["a","b"]}\n[tool_call] lookup {"email":"a@b.example","n":1}\n[1] see note\n[a] [b](http://x.example)'],
  ['keeps a unified diff hunk outside a fence as written (its counts say where it ends)', 'The change:\n@@ -1,4 +1,4 @@ export function f(\n   const out = [];\n-  let cursor   = a;\n+  let cursor   = b;\n\n   return out;\nThat  is all.', 'The change:\n@@ -1,4 +1,4 @@ export function f(\n   const out = [];\n-  let cursor   = a;\n+  let cursor   = b;\n\n   return out;\nThat is all.'],
  ['keeps an aria-label that holds a number and which option a form had checked', '<nav aria-label="Breadcrumb"><a href="/">Home</a></nav>\n<div class="rating" aria-label="4.6 out of 5 stars"><span class="stars"></span></div>\n<p>Size:</p>\n<label><input type="radio" name="c" value="1" checked> 1 TB</label>\n<label><input type="radio" name="c" value="2"> 2 TB</label>\n<input type="text" name="q">', '[Home](/)\n\n4.6 out of 5 stars\n\nSize:\n\n[x] 1 TB\n[ ] 2 TB'],
  ['keeps a few-shot example\'s one-line JSON answer as written (the format the model copies); a tool\'s one-line JSON is compacted', 'Tool: {"id": 7, "ok": true}\n\nText: Ann, 30\nOutput: {"name": "Ann", "age": 30}\n\nText: Bob, 41\nOutput:\n{"name": "Bob", "age": 41}\n\nText: Cy, 52\nOutput:', 'Tool: {"id":7,"ok":true}\n\nText: Ann, 30\nOutput: {"name": "Ann", "age": 30}\n\nText: Bob, 41\nOutput:\n{"name": "Bob", "age": 41}\n\nText: Cy, 52\nOutput:'],
  ['keeps a few-shot example\'s pretty-printed JSON answer as written (the model copies its layout)', 'Text: Ann, 30\nJSON:\n{\n  "name": "Ann",\n  "age": 30\n}\n\nText: Bob, 41\nJSON:\n{\n  "name": "Bob",\n  "age": 41\n}\n\nText: Cy, 52\nJSON:', 'Text: Ann, 30\nJSON:\n{\n  "name": "Ann",\n  "age": 30\n}\n\nText: Bob, 41\nJSON:\n{\n  "name": "Bob",\n  "age": 41\n}\n\nText: Cy, 52\nJSON:'],
  ['keeps a prompt\'s own <input> tags, which it closes as HTML never does', '<example>\n<input>2 cups flour, sifted</input>\n<output>flour</output>\n</example>\n<task><input>3 eggs</input></task>', '<example>\n<input>2 cups flour, sifted</input>\n<output>flour</output>\n</example>\n<task><input>3 eggs</input></task>'],
  ['keeps the empty cells of psql rows, the last one too (psql prints no outer pipes)', ' Column |  Type   | Collation | Nullable | Default \n--------+---------+-----------+----------+---------\n team   | text    |           | not null | \n year   | integer |           | not null | 2025\n', 'Column|Type|Collation|Nullable|Default\n-|-|-|-|-\nteam|text||not null||\nyear|integer||not null|2025'],
  ['reads a psql header centred by 4+ spaces as the header row, not indented code', '      customer      | country \n--------------------+---------\n Hoffmann GmbH      | DE\n(1 row)', 'customer|country\n-|-\nHoffmann GmbH|DE\n(1 row)'],
  ['keeps the trailing pipe after a cell that ends with a backslash', '| path | n |\n|---|---|\n| 1 | C:\\ |', 'path|n\n-|-\n1|C:\\|'],
  ['joins the cells of space-aligned columns by tabs', 'NAME      READY   STATUS\nweb-1     1/1     Running\ndb-0      0/1     Pending', 'NAME\tREADY\tSTATUS\nweb-1\t1/1\tRunning\ndb-0\t0/1\tPending'],
  ['puts a named index (its own line under the header) into the header\'s blank first cell', 'Result:\n\n               accuracy  latency_ms\nmodel\nbaseline-lstm     0.812      14.200\ndistil-bert       0.874      22.810\ntiny-cnn          0.768       3.900', 'Result:\n\nmodel\taccuracy\tlatency_ms\nbaseline-lstm\t0.812\t14.200\ndistil-bert\t0.874\t22.810\ntiny-cnn\t0.768\t3.900'],
  ['joins a printed data frame with its header over the blank index column', 'Result:\n\n       country  year  population\n0      Germany  2020    83240525\n1       France  2020    67391582\n2  Netherlands  2020    17441139', 'Result:\n\n\tcountry\tyear\tpopulation\n0\tGermany\t2020\t83240525\n1\tFrance\t2020\t67391582\n2\tNetherlands\t2020\t17441139'],
  ['keeps an indented line above aligned rows whose words do not stand over their gutters', 'Run:\n\n    make  all\nNAME      READY   STATUS\nweb-1     1/1     Running\ndb-0      0/1     Pending', 'Run:\n\n    make  all\nNAME\tREADY\tSTATUS\nweb-1\t1/1\tRunning\ndb-0\t0/1\tPending'],
  ['collapses aligned key: value lines instead of making them a table', 'name:     web\nreplicas: 3\nimage:    nginx:1.25', 'name: web\nreplicas: 3\nimage: nginx:1.25'],
  ['keeps YAML and nested-list indentation and CSV', 'a:\n  b: 1\n  c:\n    - x\n- item\n  - sub\nid,name\n1, Ann', 'a:\n  b: 1\n  c:\n    - x\n- item\n  - sub\nid,name\n1, Ann'],
  ['drops a quoted reply that repeats an earlier message', 'Can we meet on Friday at 10?\nAnn\n\nYes, Friday works.\n> Can we meet on Friday at 10?\n> Ann', 'Can we meet on Friday at 10?\nAnn\n\nYes, Friday works.'],
  ['shortens separator lines, keeping setext underlines', 'Title\n==========\nText.\n________________________________________\nFrom: Ann\n- - -', 'Title\n===\nText.\n___\nFrom: Ann\n- - -'],
  ['drops a repeated sign-off block that closes a paragraph', 'Send it today.\nThanks,\nAnn Lee\nHead of Finance\n\nGot it, sent.\nThanks,\nAnn Lee\nHead of Finance', 'Send it today.\nThanks,\nAnn Lee\nHead of Finance\n\nGot it, sent.'],
  ['keeps short steps that repeat inside few-shot examples', 'Q: Count.\nA:\n- orange (1)\n- plum (2)\nSo the answer is 3.\n\nQ: Count again.\nA:\n- orange (1)\n- plum (2)\nSo the answer is 4.', 'Q: Count.\nA:\n- orange (1)\n- plum (2)\nSo the answer is 3.\n\nQ: Count again.\nA:\n- orange (1)\n- plum (2)\nSo the answer is 4.'],
  ['drops a repeated signature block', 'Hi.\n-- \nAnn Lee\nACME Corp\n\nHello.\n-- \nAnn Lee\nACME Corp', 'Hi.\n--\nAnn Lee\nACME Corp\n\nHello.'],
  ['keeps quoted strings byte for byte', 'Say "two  spaces" now', 'Say "two  spaces" now'],
  ['joins contractions whose clitic a transcript split off', "Bob: It 's fine , I do n't know , we 've seen it .", "Bob: It's fine , I don't know , we've seen it ."],
  ['joins a clitic split off by no-break spaces too', "we\u00a0\u00a0 've", "we've"],
  ['keeps quoted letters and apostrophes that are not split clitics', "Press the 's' key and play rock 'n' roll, 'd' too.", "Press the 's' key and play rock 'n' roll, 'd' too."],
  ['keeps a statement that another speaker repeats (two turns, not one said twice)', 'Ann: I do not agree with this plan.\nBob: I do not agree with this plan.', 'Ann: I do not agree with this plan.\nBob: I do not agree with this plan.'],
  ['keeps repeated framing sentences of few-shot turns in safe', 'Q: Sort the following words in order. List: b a\nQ: Sort the following words in order. List: d c', 'Q: Sort the following words in order. List: b a\nQ: Sort the following words in order. List: d c'],
  ['does not touch filler in safe', 'Please, could you kindly help?', 'Please, could you kindly help?'],
  [
    'drops a labelled line of a block said again with its label where nothing continues it',
    'Hi Marco,\n\nWe accept the quote.\n\nBest regards,\nLaura\n+1 (415) 555-0172\n\nCONFIDENTIALITY NOTICE: This e-mail is intended solely for the recipient. If you are not the intended recipient, please notify the sender and delete it.\n\n-----Original Message-----\nFrom: Laura\n\nCould you do 0.38?\n\nBest regards,\nLaura\n+1 (415) 555-0172\n\nCONFIDENTIALITY NOTICE: This e-mail is intended solely for the recipient. If you are not the intended recipient, please notify the sender and delete it.',
    'Hi Marco,\n\nWe accept the quote.\n\nBest regards,\nLaura\n+1 (415) 555-0172\n\nCONFIDENTIALITY NOTICE: This e-mail is intended solely for the recipient. If you are not the intended recipient, please notify the sender and delete it.\n\n-----Original Message-----\nFrom: Laura\n\nCould you do 0.38?',
  ],
  ['keeps the label of an answer whose repeated framing goes', "Q: Is it red?\nA: Let's think step by step.\nIt is.\n\nQ: Is it blue?\nA: Let's think step by step.\nIt is not.\n\nQ: Is it green?\nA:", "Q: Is it red?\nA: Let's think step by step.\nIt is.\n\nQ: Is it blue?\nA:\nIt is not.\n\nQ: Is it green?\nA:"],
];

const BALANCED: Case[] = [
  ['keeps "like" before a quantity (an estimate) and a hesitation after a bare "no"', 'Ann: Um, the shop grew, like, 8 percent, and, like, ninety percent of that was online.\nBob: Um, no, um, swollen glands in the neck, and the fever is gone.\nAnn: Good, we stop here.', 'Ann: The shop grew, like, 8 percent, and, like, ninety percent of that was online.\nBob: No, um, swollen glands in the neck, and the fever is gone.\nAnn: Good, we stop here.'],
  ['keeps the comma of "having said that" where a hesitation goes', 'Having said that, um, I would hold the guidance.', 'Having said that, I would hold the guidance.'],
  ['keeps "I would like you to" inside a clause', 'See the format that I would like you to follow.', 'See the format that I would like you to follow.'],
  ['keeps the query whole where a sentence of it repeats a question asked before', 'Question: What share of 2028 debt is Harlow\'s?\nTable: 2028 | 1,120\n\nRows: Harlow 2028 is 1,120.\n\nQuestion: What share of 2028 debt is Harlow\'s?\nGive one decimal place.\nAnswer:', 'Question: What share of 2028 debt is Harlow\'s?\nTable: 2028 | 1,120\n\nRows: Harlow 2028 is 1,120.\n\nQuestion: What share of 2028 debt is Harlow\'s?\nGive one decimal place.\nAnswer:'],
  ['removes request wrappers and politeness', 'Could you please summarize the report? Thank you so much!', 'Summarize the report?'],
  ['keeps a modal that does not open the sentence', 'What can you tell me about Paris?', 'What can you tell me about Paris?'],
  ['removes "I would like you to"', 'I would like you to translate this.', 'Translate this.'],
  ['keeps "was able to" (it says the call was made; "could" would say only that it was possible)', 'She was able to call for help, and they were able to land.', 'She was able to call for help, and they were able to land.'],
  ['reads a run of Unicode spaces as one space before the phrase rules', '-Could you please \u2003answer', '-Could you please answer'],
  ['removes other request wrappers', 'Hi, I was wondering if you could check my order. Would it be possible for you to ship it? I would appreciate it if you could reply.', 'Hi, check my order. Ship it? Reply.'],
  ['keeps questions that only open like a request', 'Would you mind if I bring my dog on Friday? Would it be possible to see Mars with the naked eye? The word literally means "in a literal manner". The two are essentially equivalent. Essentially, they match.', 'Would you mind if I bring my dog on Friday? Would it be possible to see Mars with the naked eye? The word literally means "in a literal manner". The two are essentially equivalent. They match.'],
  ['keeps "um" before a number (German "um 10 Uhr")', 'Anna: Wir treffen uns um 10 Uhr.\nBen: Um 10? Um, I mean, sure.', 'Anna: Wir treffen uns um 10 Uhr.\nBen: Um 10? Sure.'],
  ['keeps "literally" that closes its phrase as a manner adverb', 'Interpret each question literally and as a question about the real world. I literally ran home.', 'Interpret each question literally and as a question about the real world. I ran home.'],
  ['removes "As an AI language model,"', 'As an AI language model, I cannot browse.', 'I cannot browse.'],
  ['replaces verbose phrases from the table', 'We left early in order to avoid traffic due to the fact that it rained.', 'We left early to avoid traffic because it rained.'],
  ['replaces the newer verbose phrases too', 'In spite of the rain, a wide variety of birds came in order for us to count them.', 'Despite the rain, various birds came for us to count them.'],
  ['keeps a phrase that only looks like a table entry', 'Of course, a variety show in the form below.', 'Of course, a variety show in the form below.'],
  ['keeps the capital of a replaced sentence start', 'Prior to the meeting, read this.', 'Before the meeting, read this.'],
  ['removes disfluencies and noise tags of transcripts', 'Sarah: Um I think {vocalsound} we should uh go.', 'Sarah: I think we should go.'],
  ['collapses stutters in spoken text', 'Tom: uh I I think the the plan works.', 'Tom: I think the plan works.'],
  ['takes a disfluency that ends or is a sentence with its comma or stop', "I don't know, hmm. Hmm. Let me think.\nAnn: Um . We start at nine.\nBob: It was, uh, fine.", "I don't know. Let me think.\nAnn: We start at nine.\nBob: It was fine."],
  ['collapses a long stutter completely', 'Ann: um tu tu tu tu yes.', 'Ann: tu yes.'],
  ['leaves lines of another language to the structure passes, and rewrites the English ones', 'Er hat das Buch gelesen, und das ist gut.\nHet is een mooie dag en er is een probleem.\nCould you please explain this?', 'Er hat das Buch gelesen, und das ist gut.\nHet is een mooie dag en er is een probleem.\nExplain this?'],
  ['keeps "um" and "er" where they are words of another language', 'Händler fürchten um Parkplätze.\nEr kommt morgen um neun.\nEle comprou um carro.\nSam: Um, er, the store opens at nine.', 'Händler fürchten um Parkplätze.\nEr kommt morgen um neun.\nEle comprou um carro.\nSam: The store opens at nine.'],
  ['keeps grammatical doublings', 'Ann: um I know that that is true.', 'Ann: I know that that is true.'],
  ['never collapses repeated negations', 'Bob: uh no no, not now.', 'Bob: no no, not now.'],
  ['removes comma-delimited spoken fillers', 'Ann: It was, you know, fine.', 'Ann: It was fine.'],
  ['drops a spoken "Like," that opens a sentence', 'Ann: Um, only on 11. Like, both 12 and 13 are fine. I like, like, it.', 'Ann: Only on 11. Both 12 and 13 are fine. I like it.'],
  ['keeps a list comma around a spoken filler', 'Ann: We need Go, you know, Postgres and Kafka.', 'Ann: We need Go, Postgres and Kafka.'],
  ['drops a speaker turn left empty', 'Ann: Hello.\nBob: {vocalsound}\nCid: Hmm hmm .\nAnn: Bye.', 'Ann: Hello.\nAnn: Bye.'],
  ['never drops a line that only comes to look like a speaker label after a removal', 'Ann: um yes.\nThank you so much! go A: -', 'Ann: yes.\nGo A: -'],
  ['drops framing sentences that a later turn with the same label repeats (few-shot boilerplate)', 'Q: Sort the following words in order. List: b a\nA: a b\nQ: Sort the following words in order. List: d c\nA: c d', 'Q: Sort the following words in order. List: b a\nA: a b\nQ: List: d c\nA: c d'],
  ['drops a long framing (more than three sentences) that a later turn with the same label repeats', 'Q: Read the list of error types below. Names: a name is changed to another one. Numbers: a number is changed to another one. Facts: a fact is changed to another one. Find the error. Text: X.\nQ: Read the list of error types below. Names: a name is changed to another one. Numbers: a number is changed to another one. Facts: a fact is changed to another one. Find the error. Text: Y.', 'Q: Read the list of error types below. Names: a name is changed to another one. Numbers: a number is changed to another one. Facts: a fact is changed to another one. Find the error. Text: X.\nQ: Find the error. Text: Y.'],
  ['keeps the last sentence of a turn even when it was said before', 'Q: Is the sky very blue today? Answer yes.\nQ: Is the sky very blue today?', 'Q: Is the sky very blue today? Answer yes.\nQ: Is the sky very blue today?'],
  ['keeps a repeated framing sentence under 5 words', 'Q: Answer this now. Two plus two?\nQ: Answer this now. Three plus one?', 'Q: Answer this now. Two plus two?\nQ: Answer this now. Three plus one?'],
  ['keeps a framing sentence repeated under another label', 'Q: Sort the following words in order. List: b a\nA: Sort the following words in order. List: a b', 'Q: Sort the following words in order. List: b a\nA: Sort the following words in order. List: a b'],
  ['drops a turn\'s framing that continues on the lines after the label', "Q: b a\nA: Let's think step by step.\nWe read every word of the list in turn. First b, then a.\n\nQ: d c\nA: Let's think step by step.\nWe read every word of the list in turn. First d, then c.", "Q: b a\nA: Let's think step by step.\nWe read every word of the list in turn. First b, then a.\n\nQ: d c\nA:\nFirst d, then c."],
  ['keeps framing that a turn repeats after its own first sentence', 'Q: Sort the words in this order. List: b a\nQ: Here is one more. Sort the words in this order. List: d c', 'Q: Sort the words in this order. List: b a\nQ: Here is one more. Sort the words in this order. List: d c'],
  ['drops a sentence said twice in a row', 'The report is due on Friday morning. The report is due on Friday morning. Send it to Ann.', 'The report is due on Friday morning. Send it to Ann.'],
  ['drops a line that opens with the sentence the line before ended with', 'Above all, the only funny edit is the third one.\nAbove all, the only funny edit is the third one. So the answer is C.', 'Above all, the only funny edit is the third one.\nSo the answer is C.'],
  ['keeps a short sentence said twice in a row', 'Not this one. Not this one. Go on.', 'Not this one. Not this one. Go on.'],
  ['keeps a sentence that a labelled line opens with and then says again (the label belongs to the first)', 'Ann: We should go there now. We should go there now.', 'Ann: We should go there now. We should go there now.'],
  ['keeps a sentence said again by another speaker', 'Ann: I do not agree with this plan at all.\nBob: Well. I do not agree with this plan at all.', 'Ann: I do not agree with this plan at all.\nBob: Well. I do not agree with this plan at all.'],
  ['keeps every word around a repeated instruction (end marks without a space)', 'Answer in exactly one word. Wait...what is this? Hi!Bob is here. Answer in exactly one word.', 'Answer in exactly one word. Wait...what is this? Hi!Bob is here.'],
  ['drops an instruction said twice', 'Answer in exactly one word. The sky is blue. Answer in exactly one word.', 'Answer in exactly one word. The sky is blue.'],
  ['keeps a repeated statement that is not an instruction', 'So the answer is No. Then so the answer is No.', 'So the answer is No. Then so the answer is No.'],
  ['keeps filler inside quotes and code', 'Print "please basically" and `in order to`.', 'Print "please basically" and `in order to`.'],
  ['never removes "mm" after a number', 'It is 7 mm wide.', 'It is 7 mm wide.'],
  ['never removes "mm" after a number and no-break spaces', 'Ann: um it is 7\u00a0\u00a0mm wide.', 'Ann: it is 7 mm wide.'],
  ['drops a retrieval header\'s title when the passage opens with it', 'Document [1](Title: Paris) Paris is the capital.', 'Document [1] Paris is the capital.'],
  ['keeps a retrieval header\'s title when the passage does not open with it', 'Document [2](Title: Paris) The city is old.', 'Document [2](Title: Paris) The city is old.'],
  ['drops a retrieval header\'s title when the passage opens with "The" and it', 'Document [6](Title: 2011 NBA Finals) The 2011 NBA Finals was a series.', 'Document [6] The 2011 NBA Finals was a series.'],
  ['keeps the title when the passage opens with an article and another name', 'Document [6](Title: NBA Finals) The NBA Draft is held.', 'Document [6](Title: NBA Finals) The NBA Draft is held.'],
  ['keeps the title when the passage only opens with a longer word', 'Document [3](Title: Paris) Parisians are proud.', 'Document [3](Title: Paris) Parisians are proud.'],
  ['keeps discourse markers and articles in balanced', 'Ann: Okay , so we bought a car.', 'Ann: Okay , so we bought a car.'],
  ['never drops a repeated paragraph of answer options (each question keeps its own)', 'Q: Is it red?\n\nOptions:\n(A) Yes it is\n(B) No it is not\n\nQ: Is it blue?\n\nOptions:\n(A) Yes it is\n(B) No it is not', 'Q: Is it red?\n\nOptions:\n(A) Yes it is\n(B) No it is not\n\nQ: Is it blue?\n\nOptions:\n(A) Yes it is\n(B) No it is not'],
  ['keeps filler inside an answer option', '(A) Please basically go in order to win', '(A) Please basically go in order to win'],
  ['keeps the list comma around a disfluency after a list item, not after a verb', 'Ann: We use Go, uh, Postgres, and, um, Kafka. It is, um, 40 dollars.', 'Ann: We use Go, Postgres, and Kafka. It is 40 dollars.'],
  ['drops a turn left empty under a label with a note in parentheses', 'CHAIR (Helen Park): Thank you.\nTREASURER (Bill Evans): The balance is 4,200 pounds.', 'TREASURER (Bill Evans): The balance is 4,200 pounds.'],
  ['drops "basically" as a sentence adverb, keeps it where it qualifies a word', 'Basically, we need two servers. The fix is basically complete, but two tests fail.', 'We need two servers. The fix is basically complete, but two tests fail.'],
  ['drops a calculator annotation the step says already', 'She sold 48/2 = <<48/2=24>>24 clips, earning 12*6 = $<<12*6=72>>72.', 'She sold 48/2 = 24 clips, earning 12*6 = $72.'],
  ['keeps a calculator annotation whose numbers the line does not say before it', 'Half of them is <<30/2=15>>15 cows.', 'Half of them is <<30/2=15>>15 cows.'],
  ['keeps a calculator annotation its result does not follow', 'It is 4*3 = <<4*3=12>>120 or 4*3 = <<4*3=12>>12.5.', 'It is 4*3 = <<4*3=12>>120 or 4*3 = <<4*3=12>>12.5.'],
  ['keeps a calculator annotation in fenced code', '```\nx = 4*3 = <<4*3=12>>12\n```', '```\nx = 4*3 = <<4*3=12>>12\n```'],
  ['drops a closing hedge sentence', 'The final answer is $3$. I hope it is correct.', 'The final answer is $3$.'],
  ['keeps a literal "end of the day" and "in the process of"', 'How many are left at the end of the day? We are in the process of moving.', 'How many are left at the end of the day? We are in the process of moving.'],
];

const AGGRESSIVE: Case[] = [
  ['keeps a question that opens after a comma ("…, who is …?")', 'Based on the table, who is on call on Saturday?', 'Based on table, who is on call on Saturday?'],
  ['keeps the verb of an inverted question', 'She wrote it, and is there anything left to do?', 'She wrote it, and is there anything left to do?'],
  ['keeps intensifiers that carry the sense', 'Run them in the day rather than at night. It is not really broken. It took quite a few tries.', 'Run them in day rather than at night. It is not really broken. It took quite a few tries.'],
  ['prunes English lines only: French, Portuguese and Italian keep their articles and verbs', 'Il a un chien et une maison.\nA casa é grande e a porta está aberta.\nLa casa è grande e ha un giardino.\nThe dog is in the garden.', 'Il a un chien et une maison.\nA casa é grande e a porta está aberta.\nLa casa è grande e ha un giardino.\nDog in garden.'],
  ['prunes forms of "to be" and intensifiers before lower-case words', 'The soup is really cold and the guests were really tired.', 'Soup cold and guests tired.'],
  ['keeps a degree: "very", "extremely"', 'Use very cold butter and extremely ripe pears.', 'Use very cold butter and extremely ripe pears.'],
  ['keeps "rather" of a preference, "just" and "only" before what they restrict, "a little" and a letter at a sentence start', "I'd rather not revert it. Give just the answers. A little. ^ a b Smith.", "I'd rather not revert it. Give just the answers. A little. ^ a b Smith."],
  ['keeps "Oh, no" and "Yeah, no" (a bare "No" would disagree)', 'Ann: Oh, no. That is bad.\nBob: Yeah, no, that is the real issue.\nAnn: Okay, we defer it.', 'Ann: Oh, no. That is bad.\nBob: Yeah, no, that is the real issue.\nAnn: We defer it.'],
  ['keeps "to be" after a pronoun (without it a passive reads as active)', 'It is really cold and we were really told.', 'It is cold and we were told.'],
  ['keeps the verb that opens a question and "to be"', 'Is it ready? We want it to be original.', 'Is it ready? We want it to be original.'],
  ['prunes a sentence-initial article', 'The cat sat. A dog barked.', 'Cat sat. Dog barked.'],
  ['keeps a capital A where the text uses A as a name', 'If A and B hold, C holds. A dog barked.', 'If A and B hold, C holds. A dog barked.'],
  ['keeps a capital A where the text ends a clause with it', 'The first is A, the second B. A dog barked.', 'First is A, second B. A dog barked.'],
  ['reads answer labels and options as no use of the letter A', 'Q: Which?\n(A) a cat\nA: A dog barked.', 'Q: Which?\n(A) a cat\nA: Dog barked.'],
  ['keeps an article before a name', 'He went into the bloodstream of the Hudson Bay.', 'He went into bloodstream of the Hudson Bay.'],
  ['keeps an article before a name', 'The Romantics played.', 'The Romantics played.'],
  ['drops "that" after verbs of saying', 'We are told that Frank missed.', 'We are told Frank missed.'],
  ['keeps "that" after a verb of saying when it is the subject', 'Ann: I thought that was important.', 'Ann: I thought that was important.'],
  ['keeps negations', 'It is not the case that Ann was never there.', 'It is not case that Ann never there.'],
  ['drops a turn that only acknowledges, keeps one that says no', 'Ann: We start now.\nBob: Yeah , okay .\nCid: No .\nAnn: Fine.', 'Ann: We start now.\nCid: No .\nAnn: Fine.'],
  ['keeps an acknowledgement that answers a question', 'Ann: Is the budget approved?\nBob: Yeah.', 'Ann: Is the budget approved?\nBob: Yeah.'],
  ['keeps a question\'s copula and article, turns a statement\'s into a colon', 'What time is the meeting in Tokyo? The Nile is the longest river.', 'What time is the meeting in Tokyo? The Nile: longest river.'],
  ['prunes an article inside a sentence before a lower-case word', 'Bob bought a car and sold the house.', 'Bob bought car and sold house.'],
  ['prunes an article after a preposition outside retrieved passages', 'It flows directly into the bloodstream of a patient.', 'It flows directly into bloodstream of patient.'],
  ['keeps an article after a preposition inside a retrieved passage (answers are quoted from it)', 'Document [7](Title: Insulin) Insulin flows directly into the bloodstream of a patient.', '[7] Insulin flows directly into the bloodstream of a patient.'],
  ['keeps it on a passage line already shortened (idempotent)', '[7](Insulin) It goes into the bloodstream and the liver.', '[7](Insulin) It goes into the bloodstream and liver.'],
  ['keeps articles after prepositions in other passage formats, to the end of the paragraph', 'Passage 2: Insulin goes into the blood.\nIt acts on a cell.\n\nQuestion: where does the insulin go in the body?', 'Passage 2: Insulin goes into the blood.\nIt acts on a cell.\n\nQuestion: where does insulin go in body?'],
  ['keeps articles after prepositions under a Context: header', 'Context:\nIt flows into the bloodstream.', 'Context:\nIt flows into the bloodstream.'],
  ['does not take a word like "Source" in prose for a passage header', 'Source code goes into the repository.', 'Source code goes into repository.'],
  ['prunes the article that opens a passage', 'Document [1](Title: Nobel Prize) The first prize was awarded in 1901.', '[1](Nobel Prize) first prize awarded in 1901.'],
  ['keeps an article before a capitalised word or a number', 'We met the Romantics and saw a 2002 film.', 'We met the Romantics and saw a 2002 film.'],
  ['keeps "a" used as a variable and articles of quantities', 'Let a be even, so a few remain and the most win.', 'Let a be even, so a few remain and the most win.'],
  ['keeps the article of a fraction or a round number ("two and a half", "a hundred")', 'The flight takes two and a half hours and a hundred people board.', 'Flight takes two and a half hours and a hundred people board.'],
  ['keeps the question of the query where the examples said it before', 'Q: If you follow these instructions, do you return to the starting point? Take 1 step.\nA: No. So the answer is No.\n\nQ: If you follow these instructions, do you return to the starting point? Take 2 steps. Take 2 steps back.\nA:', 'Q: If you follow these instructions, do you return to starting point? Take 1 step.\nA: No. So the answer is No.\n\nQ: If you follow these instructions, do you return to starting point? Take 2 steps. Take 2 steps back.\nA:'],
  ['keeps the chain-of-thought answer cue "the answer is"', 'So the answer is (A). Thus the answer was yes. The answer is 6.', 'So the answer is (A). Thus the answer was yes. The answer is 6.'],
  ['turns "is the" between two noun phrases into a colon outside passages', 'We know the Nile is the longest river.', 'We know the Nile: longest river.'],
  ['treats a possessive after "is" like an article', 'Item 2 today is our last session.', 'Item 2 today: our last session.'],
  ['keeps "is the" after a wh-word, "there" or a pronoun', 'What is the capital? There is a cat. It is a dog.', 'What is the capital? There is a cat. It is a dog.'],
  ['keeps "is a" in a sentence that has a colon of its own, and makes one colon per sentence', '(1) Lesley is a friend of Ann: L = f(Ann). Bob is a cook and Ann is a baker.', '(1) Lesley is a friend of Ann: L = f(Ann). Bob: cook and Ann is a baker.'],
  ['keeps a noun predicate whole inside a passage', 'Passage 1: The Nile is the longest river in Africa.', 'Passage 1: The Nile is the longest river in Africa.'],
  ['reduces a relative clause with "to be" after a comma', 'The film, which was directed by Spielberg, won.', 'Film, directed by Spielberg, won.'],
  ['keeps a relative clause before a wh-word', 'He left, which is why we lost.', 'He left, which is why we lost.'],
  ['treats the word after a removed sentence opener as a sentence start (and capitalises what follows)', 'Ann: Okay , the budget is tight .', 'Ann: Budget tight .'],
  ['drops discourse markers that open a clause', 'Ann: Okay , so , we start now .', 'Ann: We start now .'],
  ['keeps a discourse marker inside a clause and "no" as an answer', 'Bob: It works as well , I think .\nAnn: No , it fails .', 'Bob: It works as well , I think .\nAnn: No , it fails .'],
  ['shortens a retrieval header, dropping a title the passage repeats', 'Document [1](Title: Paris) Paris is the capital of France.', '[1] Paris is the capital of France.'],
  ['shortens a retrieval header, keeping a title with its own parentheses', 'Document [2](Title: Mercury (planet)) It is small.', '[2](Mercury (planet)) It is small.'],
  ['never prunes in quotes, code or tables', 'Use "the very best" and `is a`.\n| the | is |', 'Use "the very best" and `is a`.\n|the|is|'],
  ['keeps answer options verbatim', 'Which is true?\n(A) The ball is really red\nB. The cat is   very small\nC) a b', 'Which is true?\n(A) The ball is really red\nB. The cat is   very small\nC) a b'],
  ['keeps options written on the header line verbatim', 'What is the really best?\nAnswer Choices: (A) the really best (B) a really good one', 'What is the best?\nAnswer Choices: (A) the really best (B) a really good one'],
  ['keeps the items of an options block verbatim, and prunes bullets elsewhere', 'Options:\n- The ball is really red\n- No\n\n- The dog is really old', 'Options:\n- The ball is really red\n- No\n\n- The dog old'],
  ['keeps "a"/"an" that means "per", drops other articles', 'Ben earns $12 an hour and works 6 hours a day at the shop, half an hour a person.', 'Ben earns $12 an hour and works 6 hours a day at shop, half an hour person.'],
];

/**
 * Telegraphic rules of `aggressive` for chain-of-thought prose (telegraph.ts EXISTENTIAL_RE, PERFECT_RE,
 * REDUCED_RELATIVE_RE before a number, IF_THEN_RE): each with the look-alikes that must stay. Each
 * output is checked to be a fixed point too.
 */
const TELEGRAPHIC: Case[] = [
  [
    'drops an existential "there is/are" before a number or a quantity word; the quantity stays',
    "She sold 30 of them, so there are 42 - 30 = 12 muffins left. There were three golfers: Amy, Eli and Eve. There is no item to the left, and there's only one way.",
    'She sold 30 of them, so 42 - 30 = 12 muffins left. Three golfers: Amy, Eli and Eve. No item to left, and only one way.',
  ],
  ['keeps an adverb between an existential "there were" and its number, capitalised', 'There were originally 32 + 42 = 74 chocolates. That means there are still 9 left.', 'Originally 32 + 42 = 74 chocolates. That means still 9 left.'],
  [
    'keeps "there is/are" before an article, in a question, after a noun, before a relative clause, inverted and in a passage',
    'So there are 5 left. There is a cat. How many apples does he have if there are 5 boys? The book there is 5 years old. There are 2 samples that weigh 10 g. Are there 3 cats? Is there no way?\n\nPassage 1: There were 3 kings of Rome.',
    'So 5 left. There is a cat. How many apples does he have if there are 5 boys? Book there is 5 years old. There are 2 samples that weigh 10 g. Are there 3 cats? Is there no way?\n\nPassage 1: There were 3 kings of Rome.',
  ],
  [
    'drops "has/have" of a perfect before a participle that is also the past, where a verb reading is clear',
    'She has already saved $85. Audi has revealed the model. We have reached the end. He has sold 30 of them. The results have changed.',
    'She already saved $85. Audi revealed model. We reached end. He sold 30 of them. Results changed.',
  ],
  [
    'keeps "has/have" of a possession, before other participles, with a duration, in a time clause, after a modal and in a question',
    'Tom has saved $5. He has colored pencils and 36 pens. He has eaten 3 apples. She has smoked 1 pack daily for 20 years. Once you have called the tool, results will come. It may well have expanded to Europa. How many has she sold? The flag has red in it. How many pencils does Tom have now? She has had 3 cats.',
    'Tom saved $5. He has colored pencils and 36 pens. He has eaten 3 apples. She has smoked 1 pack daily for 20 years. Once you have called tool, results will come. It may well have expanded to Europa. How many has she sold? Flag has red in it. How many pencils does Tom have now? She has had 3 cats.',
  ],
  [
    'reduces "which is"/"who is" before a number to an apposition, keeps "which is why"',
    'Tom starts with 3 boxes of 12 pencils, which is 3 * 12 = 36 pencils. Tom, who is 30, left. He left, which is why we lost.',
    'Tom starts with 3 boxes of 12 pencils, 3 * 12 = 36 pencils. Tom, 30, left. He left, which is why we lost.',
  ],
  [
    'drops the "then" of "if X, then Y"',
    "If today is Christmas Eve of 1937, then today's date is December 24, 1937. Since we know that Ann lies, if Bob says Ann lies, then Bob tells the truth.",
    "If today is Christmas Eve of 1937, today's date is December 24, 1937. Since we know that Ann lies, if Bob says Ann lies, Bob tells truth.",
  ],
  [
    'keeps "then" of a sequence, after a formula, after a comma inside the condition and in a question',
    'If it rains, then we stay. He ate, then slept. If X = f(a), then X = g(b). If it rains, we stay, then we leave. If it rains, then what do we do?',
    'If it rains, we stay. He ate, then slept. If X = f(a), then X = g(b). If it rains, we stay, then we leave. If it rains, then what do we do?',
  ],
  [
    'prunes a Wei-style worked answer and keeps its question and answer cue',
    'Q: Maria wants to buy a bicycle that costs $150. She has already saved $85 and she earns $13 each week. How many weeks will it take her?\nA: Maria still needs 150 - 85 = $65. Tom starts with 3 boxes of 12 pencils, which is 3 * 12 = 36 pencils. She sold 30 of them, so there are 42 - 30 = 12 muffins left. How many pencils does Tom have now? The answer is 12.',
    'Q: Maria wants to buy bicycle that costs $150. She already saved $85 and she earns $13 each week. How many weeks will it take her?\nA: Maria still needs 150 - 85 = $65. Tom starts with 3 boxes of 12 pencils, 3 * 12 = 36 pencils. She sold 30 of them, so 42 - 30 = 12 muffins left. How many pencils does Tom have now? The answer is 12.',
  ],
];

function table(level: Level, cases: readonly Case[]): void {
  describe(`compressText at ${level}`, () => {
    for (const [name, input, expected] of cases) {
      it(name, () => assert.equal(compressText(input, level), expected));
    }
  });
}
table('safe', SAFE);
table('balanced', BALANCED);
table('aggressive', AGGRESSIVE);

describe('telegraphic rules of aggressive (chain-of-thought prose)', () => {
  for (const [name, input, expected] of TELEGRAPHIC) {
    it(name, () => {
      assert.equal(compressText(input, 'aggressive'), expected);
      assert.equal(compressText(expected, 'aggressive'), expected, 'a fixed point');
    });
  }
});

describe('documented tables', () => {
  it('docs/api-09/verbose-phrases.md lists every verbose phrase with its replacement', () => {
    const doc = readFileSync(new URL('../docs/api-09/verbose-phrases.md', import.meta.url), 'utf8');
    for (const [from, to] of VERBOSE_PHRASES) assert.ok(doc.includes(`| ${from} | ${to} |`), from);
  });

  it('the verbose-phrase pattern (a character trie) matches every phrase whole, longest first, in any case and spacing', () => {
    for (const [from] of VERBOSE_PHRASES) {
      for (const text of [from, from.toUpperCase(), from.replace(/ /g, ' \t ')]) {
        VERBOSE_RE.lastIndex = 0;
        assert.equal(VERBOSE_RE.exec(`x ${text} y`)?.[0], text, text);
      }
      VERBOSE_RE.lastIndex = 0;
      assert.notEqual(VERBOSE_RE.exec(`${from}x`)?.[0], from, `${from}x: the phrase must end on a word boundary`);
    }
  });

  it('no verbose-phrase replacement removes a negation word', () => {
    const neg = new RegExp(`\\b(?:${NEGATION_WORDS.join('|')})\\b|n't\\b`, 'i');
    for (const [from, to] of VERBOSE_PHRASES) {
      assert.equal(neg.test(from), false, from);
      assert.ok(to.length < from.length, `${from} -> ${to} must be shorter`);
    }
  });
});

describe('stutter collapse', () => {
  const reference = (t: string): string =>
    t.replace(REPEAT_RE, (m: string, unit: string, offset: number, all: string) => {
      const c = all.charCodeAt(offset - 1);
      return c === 45 || c === 39 || c === 0x2019 || keepsRepeat(m, unit) ? m : unit;
    });
  const words = ['I', 'i', 'we', 'We', 'were', 'it', "it's", "It's", 'the', 'The', 'that', 'not', 'no', 'go', 'x-ray', 'ray', "don't", '3rd', 'rd', 'a', 'um'];
  const seps = [' ', ' ', ' , ', ',', '  ', '\t', '\n', '-', "'", ' 5 '];

  it('collapseRepeats matches what a plain replace with REPEAT_RE does, on seeded random text', () => {
    let seed = 7;
    const pick = <T,>(xs: readonly T[]): T => xs[(seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % xs.length]!;
    let collapsed = 0;
    for (let i = 0; i < 2000; i++) {
      let t = '';
      for (let k = 0; k < 30; k++) t += pick(words) + pick(seps);
      const expected = reference(t);
      assert.equal(collapseRepeats(t), expected, JSON.stringify(t));
      if (expected !== t) collapsed++;
    }
    assert.ok(collapsed > 500, `the random texts hold stutters (${collapsed})`);
  });

  it('collapseRepeatsUntilStable (letter runs scanned once) equals the plain replace applied until stable, on nested stutters', () => {
    const untilStable = (t: string, rounds: number): string => {
      for (let k = 0; k < rounds; k++) {
        const next = reference(t);
        if (next === t) break;
        t = next;
      }
      return t;
    };
    // Few distinct words and single spaces: repeats of repeats ("tu tu tu tu", "we were we were we were");
    // and three letters between hyphens and apostrophes: repeats kept as they are ("c-a a a") next to
    // ones that collapse, where a later round must see the kept ones as the first round did.
    const few = ['tu', 'Tu', 'we', 'were', 'it', "it's", 'go', 'no', 'that', 'x-ray'];
    const gaps = [' ', ' ', ' ', ' , ', '  ', '. ', '\n'];
    const letters = ['a', 'b', 'c', 'a', 'b', 'the', 'The'];
    const joints = [' ', ' ', '  ', ' , ', ',', '-', "'", '\n', '. ', ' 5 '];
    let seed = 11;
    const pick = <T,>(xs: readonly T[]): T => xs[(seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % xs.length]!;
    let deep = 0;
    for (let i = 0; i < 6000; i++) {
      let t = '';
      const [v, g] = i % 3 === 0 ? [few, gaps] : i % 3 === 1 ? [words, seps] : [letters, joints];
      for (let k = 0; k < 24 + (i % 40); k++) t += pick(v) + pick(g);
      for (const rounds of [1, 2, 3]) assert.equal(collapseRepeatsUntilStable(t, rounds), untilStable(t, rounds), JSON.stringify(t));
      if (reference(reference(t)) !== reference(t)) deep++;
    }
    assert.ok(deep > 50, `the random texts hold stutters that need a second round (${deep})`);
  });

  it('keeps a number read out digit by digit and emphasis, collapses a doubling said with a comma and a pronoun said again in its contraction', () => {
    const call = "AGENT: It's O-R-D, dash, seven, seven, four, one, three. So ORD-77413.\nCUSTOMER: Um, I, I'm calling because it is, is late, we, we'd like a refund. Very, very late, that that is.";
    for (const level of ['balanced', 'aggressive'] as const) {
      const out = compressText(call, level);
      assert.ok(out.includes('seven, seven, four, one, three'), `${level}: ${out}`);
      assert.ok(/I'm calling because it (?:is )?late/.test(out), `${level}: ${out}`);
      assert.ok(out.includes("we'd like") && !/we, we'd/i.test(out), `${level}: ${out}`);
      assert.ok(out.includes('Very, very late'), `${level}: ${out}`);
      assert.ok(checkRetention(call, out, level).ok, level);
    }
    assert.ok(compressText(call, 'balanced').includes('that that is'));
  });

  it('reads "mm" as millimetres or a notation where it is not set off as a hesitation', () => {
    const text = "Speaker: Dates are dd/mm/yyyy, times mm:ss, uh, and rain is in mm for Monday. It was, mm, fine and it's mm cheaper.";
    const out = compressText(text, 'balanced');
    assert.equal(out, "Speaker: Dates are dd/mm/yyyy, times mm:ss, and rain is in mm for Monday. It was fine and it's cheaper.");
  });

  it('collapseRepeatsUntilStable keeps in a later round what the first kept, wherever that round starts to look', () => {
    // A kept repeat ("c-a a a": the first "a" continues a hyphenated word) some way before a stutter
    // that takes two rounds ("tu tu tu tu"): the second round looks again only near the stutter,
    // and must not start inside the kept repeat.
    const word = (i: number): string => String.fromCharCode(98 + (i % 20)) + String.fromCharCode(98 + Math.floor(i / 20));
    for (let k = 0; k < 60; k++) {
      const t = `c-a a a ${Array.from({ length: k }, (_, i) => word(i)).join(' ')} tu tu tu tu .`;
      const expected = t.replace(/tu tu tu tu/, 'tu');
      assert.equal(collapseRepeatsUntilStable(t, 3), expected, t);
    }
  });
});

describe('scans written out by hand', () => {
  let seed = 9;
  const pick = <T,>(xs: readonly T[]): T => xs[(seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % xs.length]!;

  it('joinClitics equals the replace with SPLIT_CLITIC_RE, on seeded random text', () => {
    const pieces = ['it', 'do', 'n', 'I', 'we', 'x', "'s", "'ve", "'re", "'ll", "'d", "'m", "n't", 'n’t', '’s', "'t", "'S", "'sa", "'s-", "''", '’', "'", ' ', ' ', '  ', '\t', '\u00a0', '\u2003', '\n', ',', '5'];
    let joined = 0;
    for (let i = 0; i < 20000; i++) {
      let t = '';
      for (let k = 2 + (i % 12); k > 0; k--) t += pick(pieces);
      const expected = t.replace(SPLIT_CLITIC_RE, '$1');
      assert.equal(joinClitics(t), expected, JSON.stringify(t));
      if (expected !== t) joined++;
    }
    assert.ok(joined > 1000, `the random texts hold split clitics (${joined})`);
  });

  it('trimLineEnds equals the replace with /[ \\t]+$/gm, on seeded random text', () => {
    const pieces = ['a', 'b c', ' ', ' ', '\t', '\n', '\n', '\u00a0', '\r', '\u2028', '.'];
    for (let i = 0; i < 20000; i++) {
      let t = '';
      for (let k = 1 + (i % 16); k > 0; k--) t += pick(pieces);
      assert.equal(trimLineEnds(t), t.replace(/[ \t]+$/gm, ''), JSON.stringify(t));
    }
  });
});

describe('protected word-like items', () => {
  it('the plain-word fast path of WORD_ITEM_RE finds the same items as the plain form, on seeded random text', () => {
    // Pieces that sit at the edge of the plain-word test: end marks before another mark ("abc..x@y.com",
    // "abc.://x"), scheme and e-mail parts, camelCase, digits, non-ASCII letters.
    const pieces = ['abc', 'Abc', 'ABC', 'aB', 'é', 'www', 'mailto', 'os', 'path', '.', '..', ':', '.:', '://', '@', 'x@y.com', '1', '_', '-', '%', '+', '$', ' ', ',', '\n', '"', ')', '?'];
    const slow = wordItemRegExp(false);
    const items = (re: RegExp, t: string): string => Array.from(t.matchAll(re), (m) => `${m.index}:${m[0]}`).join('|');
    let seed = 5;
    const pick = (): string => pieces[(seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % pieces.length]!;
    let found = 0;
    for (let i = 0; i < 20000; i++) {
      let t = '';
      for (let k = 1 + (i % 8); k > 0; k--) t += pick();
      const expected = items(slow, t);
      assert.equal(items(WORD_ITEM_RE, t), expected, JSON.stringify(t));
      if (expected !== '') found++;
    }
    assert.ok(found > 5000, `the random texts hold items (${found})`);
  });
});

describe('slimPrompt', () => {
  it('reports counts, saving and a one-decimal percentage', () => {
    const r = slimPrompt({ prompt: 'Could you please explain   the rule due to the fact that I forgot it?', level: 'balanced' });
    assert.equal(r.status, 'COMPRESSED');
    assert.equal(r.tokens_saved, r.original_tokens - r.compressed_tokens);
    assert.equal(r.reduction_percent, `${((r.tokens_saved * 100) / r.original_tokens).toFixed(1)}%`);
    assert.equal(r.level, 'balanced');
    assert.equal(r.encoding, 'o200k_base');
  });

  it('answers UNCHANGED with the prompt itself when nothing can be removed', () => {
    const r = slimPrompt({ prompt: 'Add 2 and 3.', level: 'aggressive' });
    assert.deepEqual([r.status, r.compressed_content, r.tokens_saved, r.reduction_percent], ['UNCHANGED', 'Add 2 and 3.', 0, '0.0%']);
  });

  it('answers UNCHANGED for an empty prompt', () => {
    const r = slimPrompt({ prompt: '' });
    assert.deepEqual([r.status, r.original_tokens, r.compressed_tokens], ['UNCHANGED', 0, 0]);
  });

  it('defaults to balanced and o200k_base', () => {
    const r = slimPrompt({ prompt: 'Um, hello   there.' });
    assert.equal(r.level, 'balanced');
    assert.equal(r.encoding, 'o200k_base');
  });
});

describe('code blocks and inline code', () => {
  // The single regex codeBlocks replaces (fenced blocks, then pre/script/style/textarea elements),
  // with the whole-run fence of patterns.ts: the same blocks, found without scanning to the end
  // again for every unclosed element.
  const REFERENCE = /^([ \t]*)(`{3,}(?!`)|~{3,}(?!~))[^\n]*\n[\s\S]*?(?:^[ \t]*\2[`~]*[ \t]*$|(?![\s\S]))|<(pre|script|style|textarea)\b[^>]*>[\s\S]*?<\/\3\s*>/gim;
  const pieces = ['```', '~~~', '`', '\n', ' ', 'a', 'js', '<pre>', '</pre>', '<PRE class="x">', '</pre >', '<script>', '</script>', '<style>', '</style>', '<textarea>', '</textarea>', '<pre', '>', '<', '</', '<prefix>'];

  it('finds the blocks the single regex finds, on 3,000 seeded texts', () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const text = seededText(seed, 20 + (seed % 120), pieces);
      const expected = [...text.matchAll(REFERENCE)].map((m) => [m.index, m[0]]);
      assert.deepEqual(codeBlocks(text).map((b) => [b.index, b[0]]), expected, JSON.stringify(text));
    }
  });

  it('reads inline code as whole runs of backticks', () => {
    const inline = new RegExp(INLINE_CODE.source, 'g');
    assert.deepEqual('use `x` and ``a ` b`` here'.match(inline), ['`x`', '``a ` b``']);
    assert.equal('a ```b`` c'.match(inline), null, 'runs of different lengths do not pair');
    assert.equal('`'.repeat(5000).match(inline), null);
  });
});

describe('invisible characters and trailing fences', () => {
  it('keeps a zero-width space or soft hyphen inside a quoted string or JSON value, drops it elsewhere', () => {
    for (const level of ['safe', 'balanced', 'aggressive'] as const) {
      assert.equal(compressText('{\n  "token": "abc\u200Bdef"\n}', level), '{"token":"abc\u200Bdef"}', level);
      assert.equal(compressText('Soft\u00ADhyphen out, "in\u00ADside" kept, zero\u200Bwidth out.', 'safe'), 'Softhyphen out, "in\u00ADside" kept, zerowidth out.');
    }
  });

  it('reads an unclosed fence at the end without the blank lines after it, as the output has it', () => {
    for (const level of ['safe', 'balanced', 'aggressive'] as const) {
      const input = 'Return JSON.\n\n```json\n\n';
      const out = compressText(input, level);
      assert.equal(out, 'Return JSON.\n\n```json');
      assert.ok(checkRetention(input, out, level).ok, level);
    }
  });
});


describe('word edges next to non-ASCII letters', () => {
  // JavaScript's \b is ASCII: "García said" has an edge inside the name, and the article rule took its "a".
  const cases = [
    ['Dr. García said the results were fine and the team agreed with him.', 'García said'],
    ['Our contact is María from the office, she will call you back tomorrow.', 'María from'],
    ['The product has a Garantía de 3 años according to the seller in Madrid.', 'Garantía de'],
    ['We insured the car with Mapfre España de Seguros because it was cheaper.', 'España de'],
    ['She wrote: zgubiłam telefon, and then she asked for help with it.', 'zgubiłam telefon'],
    ['Um, we met at the Brühm office, then we left the room, you know, together.', 'Brühm office'],
    ['The decomposed José\u0301 and the\u0301 word are here, you know, as planned.', 'the\u0301'],
  ] as const;
  for (const level of ['balanced', 'aggressive'] as const) {
    it(`${level}: a word with accented letters is never cut`, () => {
      for (const [text, kept] of cases) assert.ok(compressText(text, level).includes(kept), `${level}: ${compressText(text, level)}`);
      // English words beside them still go
      assert.ok(!compressText('We met María. The meeting was, you know, fine. Basically, it went well.', level).includes('asically'));
    });
  }
});

describe('a line said again is a value unless it is framing or part of a block said again', () => {
  const levels = ['safe', 'balanced', 'aggressive'] as const;
  it('records keep their repeated values, labelled or not, in every level', () => {
    const orders = 'Order 1001\nStatus: out for delivery today\nOrder 1002\nStatus: delivered to front door\nOrder 1003\nStatus: out for delivery today\n\nWhich orders are still out?';
    const rooms = 'Room A\nProjector is not working at all\nRoom B\nAll fine\nRoom C\nProjector is not working at all\nRoom D\nAll fine';
    const log = 'Backup job finished with errors\nBackup job finished OK\nBackup job finished with errors\nBackup job finished OK';
    const shots = 'Review: The battery died after two days.\nVerdict: this review is negative overall\n\nReview: Great screen and fast delivery.\nVerdict: this review is positive overall\n\nReview: Works as described, love it.\nVerdict: this review is positive overall';
    const trace = 'Thought: I now know the final answer\nFinal Answer: 42\n\nQuestion: And the next one?\nThought: I now know the final answer\nFinal Answer: 7';
    for (const level of levels) {
      assert.equal(compressText(orders, level).split('delivery today').length - 1, 2, level);
      assert.equal(compressText(rooms, level).split('not working').length - 1, 2, level);
      assert.equal(compressText(log, level).split('\n').length, 4, level);
      assert.equal(compressText(log.replace('OK\n', 'OK\n\nNight run:\n\n'), level).split('finished with errors').length - 1, 2, level);
      assert.equal(compressText(shots, level).split('positive overall').length - 1, 2, level);
      assert.equal(compressText(trace, level).split('now know').length - 1, 2, level);
    }
  });

  it('framing said again goes: a question, an instruction, "Let\'s think step by step."', () => {
    const text = 'Q: The sum of 2 and 3 is what number?\nA: Let\'s think step by step.\n2 + 3 = 5. So the answer is 5.\n\nQ: The sum of 4 and 4 is what number?\nA: Let\'s think step by step.\n4 + 4 = 8. So the answer is 8.\n\nIs the statement true or false?\nThe sky is green.\nFalse.\n\nIs the statement true or false?\nWater is wet.\nTrue.';
    for (const level of levels) {
      const out = compressText(text, level);
      assert.equal(out.split("step by step").length - 1, 1, `${level}\n${out}`);
      assert.equal(out.split('true or false?').length - 1, 1, `${level}\n${out}`);
      assert.ok(out.includes('Water is wet.') || out.includes('Water wet.'), out);
    }
  });

  it('a caption transcript\'s turn (">>" opens each) is speech: a vote called again stays; e-mail quotes are no captions', () => {
    const votes = ['THE AGENDA', 'THE BUDGET AMENDMENT FOR ROADS', 'THE FEE SCHEDULE AS PRESENTED'].map((item) => `>> MOVE APPROVAL OF ${item}.\n>> SECOND.\n>> ALL THOSE IN FAVOR OF THE MOTION?\n>> AYE.`).join('\n');
    for (const level of levels) assert.equal(compressText(`${votes}\n>> CARRIES 5-0.`, level).split('ALL THOSE IN FAVOR').length - 1, 3, level);
    // An e-mail's nested quotes are no captions: a line quoted again still goes, "wrote:" or a
    // single ">" beside them.
    const quoted = (q: string) => [`${q}Can we move the quarterly review to Friday afternoon?`, `${q}Ann`].join('\n');
    const lines = ['On Monday Ann wrote:', `${quoted('>> ')}\n${quoted('>> ')}\n>> Thanks`, `> Sure.\n${quoted('>> ')}\n>> Thanks\n${quoted('>> ')}`];
    for (const mail of [`${lines[0]}\n${lines[1]}`, lines[2]]) assert.equal(compressText(`Yes, Friday works.\n\n${mail}`, 'safe').split('quarterly review').length - 1, 1, mail);
  });

  it('a block said again goes whole: three lines or twenty words, blank lines between them or not', () => {
    const footer = 'Acme Corp, 1 Main Street, Springfield\n\nYou receive this mail because you signed up on our site.\n\nManage your preferences here';
    const text = `Hi Ann, the order shipped today.\n\n${footer}\n\n> Where is my order? It is late.\n\n${footer}`;
    for (const level of levels) {
      const out = compressText(text, level);
      assert.equal(out.split('signed up on our site').length - 1, 1, `${level}\n${out}`);
      assert.equal(out.split('Manage your preferences here').length - 1, 1, `${level}\n${out}`);
    }
  });
});

describe('strings written with escapes are kept whole, at any length', () => {
  const body = Array.from({ length: 12 }, (_, i) => `def f${i}(x):\\n    if x  >  ${i}:\\n        return x`).join('\\n\\n');
  const call = `<tool_call>{"name": "write_file", "arguments": {"path": "a.py", "content": "${body}"}}</tool_call>`;
  for (const level of ['safe', 'balanced'] as const) {
    it(`${level}: a file's text passed to a tool keeps its indentation (${body.length} characters)`, () => {
      const out = compressText(`Run this:\n${call}\nThen  report  back.`, level);
      assert.ok(out.includes(body), out);
      assert.ok(checkRetention(call, compressText(call, level), level).ok);
    });
  }
  it('a quotation in prose over 400 characters without escapes is still prose', () => {
    const long = `He wrote "${'the  plan  is  fine '.repeat(30)}" and left.`;
    assert.ok(!compressText(long, 'safe').includes('the  plan'));
  });
});

describe('transcript annotations', () => {
  it('a mark of missing words stays, a sound goes', () => {
    const text = 'Ann: They told us later it was [inaudible] the power was out. [laughter]\nBob: (unintelligible) on Friday. {vocalsound} OK.';
    for (const level of ['balanced', 'aggressive'] as const) {
      const out = compressText(text, level);
      assert.ok(out.includes('[inaudible]') && out.includes('(unintelligible)'), out);
      assert.ok(!out.includes('[laughter]') && !out.includes('{vocalsound}'), out);
    }
  });
});

describe('fillers of speech set off by commas', () => {
  it('go with both commas; "like" between commas goes in speech; hesitations of other languages go on their lines', () => {
    const t = "Ann: So, um, the export was, like, really slow on Monday.\nBob: I like, like, the new design.\nJonas: Also, äh, wir müssen, ähm, das Budget bis Freitag klären.\nMarie: Alors, euh, on commence lundi à neuf heures.";
    for (const level of ['balanced', 'aggressive'] as const) {
      const out = compressText(t, level);
      assert.ok(/So (the )?export/.test(out) && !out.includes('like,'), out);
      assert.ok(out.includes('I like') && !out.includes('like, like'), out);
      assert.ok(out.includes('Also wir müssen das Budget bis Freitag klären.') && out.includes('Alors on commence'), out);
      assert.ok(checkRetention(t, out, level).ok, out);
    }
    // not in safe, and "like" not in text that is no speech, nor a word that holds the letters
    assert.equal(compressText(t, 'safe'), t);
    assert.ok(compressText('The results were, like, the ones before: 3 and 4.', 'balanced').includes(', like,'));
    assert.ok(compressText('Ann: Um, die Lösung ist ähnlich, meinte Jonas, und Ehmke stimmt zu.', 'balanced').includes('ähnlich, meinte Jonas, und Ehmke'));
  });
});

describe('a header or footer said across pasted documents', () => {
  it('goes from its second copy on when said three times or more with six words of text, label and all; a separator stays', () => {
    const footer = 'Execution Version – Brightline / Halcyon Retail plc – Initials: ____ / ____';
    const source = 'Source: Encyclopedia of Alpine Lakes, 3rd edition. Retrieved 2024-05-02. All rights reserved.';
    const docs = [1, 2, 3].map((k) => `Excerpt ${k}\nClause ${k}.1 applies to the party named in section ${k}.\n${source}\n\n${footer}\n\n---`).join('\n\n');
    for (const level of ['safe', 'balanced', 'aggressive'] as const) {
      const out = compressText(docs, level);
      assert.equal(out.split('Initials').length - 1, 1, `${level}\n${out}`);
      assert.equal(out.split('Encyclopedia of Alpine Lakes').length - 1, 1, `${level}\n${out}`);
      assert.ok(!/^Source:\s*$/m.test(out), out);
      assert.equal(out.split('\n---').length - 1, 3, `${level}\n${out}`);
    }
    // a short turn said many times stays (who acknowledged)
    const talk = Array.from({ length: 4 }, (_, k) => `Grad C: Point ${k} of the plan is agreed by all of us .\nGrad A: Mm - hmm .`).join('\n');
    assert.equal(compressText(talk, 'safe').split('Mm - hmm').length - 1, 4);
  });
});

describe('the text of a translation pair is what the task works on', () => {
  it('keeps every word after a language label, in every level; the instructions around it are still compressed', () => {
    const text = 'Could you please translate the messages from English into German?\n\nEnglish: Please do not reset the device while the light is blinking.\nGerman: Bitte setzen Sie das Gerät nicht zurück, solange die Leuchte blinkt.\n\nTranslation: On this page are compiled the architectural monuments of the town.';
    for (const level of ['balanced', 'aggressive'] as const) {
      const out = compressText(text, level);
      assert.ok(out.includes('English: Please do not reset the device while the light is blinking.'), out);
      assert.ok(out.includes('Translation: On this page are compiled the architectural monuments of the town.'), out);
      assert.ok(!out.startsWith('Could you please'), out);
    }
  });
});

describe('aggressive keeps what qualifies the sense', () => {
  it('keeps an intensifier under a degree word ("almost certainly"), and the words of a line in the language of the text around it', () => {
    const out = compressText('AGENT: That is almost certainly a faulty router, not the line.', 'aggressive');
    assert.ok(out.includes('almost certainly'), out);
    const page = [
      'Answer from the page.',
      '',
      'El museo abre todos los días de la semana excepto los lunes y festivos.',
      'De martes a domingo: 10:00 – 18:00',
      'La entrada general cuesta 6,50 € y es gratuita para los menores de doce años.',
      'Las visitas guiadas se reservan por teléfono con una semana de antelación.',
      '',
      'What does a ticket cost?',
    ].join('\n');
    assert.ok(compressText(page, 'aggressive').includes('De martes a domingo: 10:00 – 18:00'), compressText(page, 'aggressive'));
  });
});

describe('what reviews of held-out outputs found changed', () => {
  const levels = ['safe', 'balanced', 'aggressive'] as const;
  it('a word said again after a comma stays where a clause can end in it; a clause opener said again is a stutter', () => {
    const out = compressText("CFO: We hold, um, 1.12 billion in cash, cash equivalents and securities. If we don't use it, it just sits there. So the, the plan is, is that it's, it's ready in, in May.", 'balanced');
    assert.ok(out.includes('in cash, cash equivalents'), out);
    assert.ok(out.includes("use it, it just sits"), out);
    assert.ok(out.includes("the plan is that it's ready in May"), out);
  });

  it('"please" goes without leaving a space before the stop or taking the comma that ends a clause', () => {
    assert.equal(compressText('For the record, would you introduce yourselves, please?', 'balanced'), 'For the record, would you introduce yourselves?');
    assert.equal(compressText("Nonstop only please, I've had enough of missed connections.", 'balanced'), "Nonstop only, I've had enough of missed connections.");
    assert.equal(compressText('Answer, please, in French.', 'balanced'), 'Answer, in French.');
  });

  it('"mm" alone in brackets is a unit', () => {
    for (const level of levels) assert.ok(compressText('Ann: Total precipitation (mm) and depth [mm], um, per day.', level).includes('(mm) and depth [mm]'), level);
  });

  it('an HTML cell keeps its line breaks as spaces (the row stays one row), and struck-through text stays marked', () => {
    const table = '<table><tr><th>Room</th><th>Low season<br><small>Nov–Mar</small></th></tr><tr><td>Double</td><td>95</td></tr></table>';
    assert.equal(compressText(table, 'safe'), '|Room|Low season Nov–Mar|\n|Double|95|');
    assert.equal(compressText('Price: <span class="was"><s>€74.90</s></span> <span class="now">€69.90</span>, <del>in stock</del> sold out', 'safe'), 'Price: ~~€74.90~~ €69.90, ~~in stock~~ sold out');
  });

  it('keeps a tag whose id the prompt names elsewhere (a web agent clicks it), with its closing tag', () => {
    const obs = 'Observation: <ul><li><a id="el-41" href="/p/glass">Glass Kettle</a></li><li><a id="el-42" href="/p/steel">Steel Kettle</a></li></ul>\nAction: click({"element_id": "el-42"})';
    for (const level of levels) {
      const out = compressText(obs, level);
      assert.ok(out.includes('<a id="el-42" href="/p/steel">Steel Kettle</a>'), out);
      assert.ok(out.includes(level === 'aggressive' ? 'Glass Kettle' : '[Glass Kettle](/p/glass)'), out);
    }
  });

  it('keeps the code of grep -n output indented, and a wikitext table as written', () => {
    const grep = 'Observation:\napp/metrics.py:12:    port = settings.metrics.port\napp/metrics.py:13:    start_http_server(port)';
    const wiki = 'Lights:\n{| class="wikitable"\n! Name !! Lit\n|-\n| Aird Light || 1834\n|-\n| Dubh Light || 1861\n|}\n\nWhich is older?';
    for (const level of levels) {
      assert.equal(compressText(grep, level), grep, level);
      assert.equal(compressText(wiki, level), wiki, level);
    }
  });

  it('aggressive keeps a citation "Document [3]" inside a sentence, "is" between numbers said in words, and "just" as "only" or "a moment ago"', () => {
    const out = compressText("He taught there until 1960. Document [3] says the first director was Ola Berg. Ann: So forty-eight is eighteen fifty. It's just me, I just called them and it was just fine.", 'aggressive');
    assert.ok(out.includes('Document [3] says'), out);
    assert.ok(out.includes('forty-eight is eighteen fifty'), out);
    assert.ok(out.includes("just me, I just called"), out);
    assert.ok(out.includes('it was fine'), out);
  });

  it('aggressive keeps "to be" of a passive that ends its clause or names its agent', () => {
    const out = compressText('Note when earlier reports were superseded, and cite the newest. The budget was approved by the board. The routes were withdrawn since April.', 'aggressive');
    assert.ok(out.includes('reports were superseded,'), out);
    assert.ok(out.includes('was approved by'), out);
    assert.ok(out.includes('Routes withdrawn since'), out);
  });
});

describe('API-09 a prompt that asks for a quotation', () => {
  const transcript = (ask: string) =>
    `${ask}\n\nInterviewer: So what would you pay for it?\nP7: Like, um, forty bucks, that's, like, that's my ceiling, you know.\nInterviewer: And the team plan?\nP7: Honestly, I mean, I would basically never pay for the team plan.`;

  it('keeps the words of its material in balanced and aggressive; the line passes still run', () => {
    for (const ask of ["Give me P7's exact words for the amount.", 'Quote his answer.', 'Copy the sentence verbatim.', 'Quote the passage that says so.']) {
      const text = transcript(ask);
      for (const level of ['balanced', 'aggressive'] as const) {
        const out = compressText(text, level);
        assert.ok(out.includes("Like, um, forty bucks, that's, like, that's my ceiling, you know."), `${level} ${ask}\n${out}`);
        assert.ok(out.includes('I mean, I would basically never pay'), `${level} ${ask}\n${out}`);
      }
    }
  });

  it('a request for a value as written, a reference to quote or a price quote changes nothing', () => {
    for (const ask of ['Give the amount exactly as written.', 'Please quote the invoice number on your transfer.', 'The original quote was $23,915. What is it now?']) {
      const out = compressText(transcript(ask), 'balanced');
      assert.ok(!out.includes('um,') && !out.includes('I mean'), `${ask}\n${out}`);
    }
  });
});

describe('API-09 a word the prompt mentions in quotes', () => {
  it('stays wherever it occurs: the example keeps the word its rationale speaks of', () => {
    const text =
      'Classify each post as sarcastic or sincere.\n\nPost: The storm cut the power, so I read by candlelight. It was actually pretty relaxing, to be honest.\n' +
      'Rationale: The word "actually" signals sincere surprise, and "honest" marks the tone.\nLabel: sincere';
    for (const level of ['balanced', 'aggressive'] as const) {
      const out = compressText(text, level);
      assert.ok(out.includes('It was actually pretty relaxing') || out.includes('It actually pretty relaxing'), `${level}\n${out}`);
      assert.ok(checkRetention(text, out, level).ok, JSON.stringify(checkRetention(text, out, level).missing));
    }
    // without the mention the hedge goes as before
    assert.ok(!compressText(text.replace('The word "actually" signals', 'It signals'), 'aggressive').includes('actually'));
  });
});

describe('API-09 a prompt that tags tokens', () => {
  it("keeps its sentences' words, which its tag lines list one by one", () => {
    const tokens = 'Fans lined the streets of Melbourne before the final .'.split(' ');
    const tags = ['O', 'O', 'O', 'O', 'O', 'B-LOC', 'O', 'O', 'O', 'O'];
    const example = `Sentence: ${tokens.join(' ')}\nTags:\n${tokens.map((t, k) => `${t} ${tags[k]}`).join('\n')}`;
    const text = `Tag each token with its entity label. Please do not merge or skip any tokens.\n\n${example}\n\nSentence: The mayor of Leeds opened the new bridge .\nTags:`;
    for (const level of ['balanced', 'aggressive'] as const) {
      const out = compressText(text, level);
      assert.ok(out.includes('Sentence: Fans lined the streets of Melbourne before the final .'), `${level}\n${out}`);
      assert.ok(out.includes('Sentence: The mayor of Leeds opened the new bridge .'), `${level}\n${out}`);
    }
  });
});

describe('API-09 aggressive keeps an article that carries sense', () => {
  it('before "one" and "other", and a letter "a" after "triple" or "plan"', () => {
    const out = compressText('Is that the one blocking the release? Yes, that is the one. We chose a rechargeable, no triple a battery. Plan a is cheaper than the other plan.', 'aggressive');
    for (const kept of ['the one blocking', 'the one.', 'triple a battery', 'Plan a', 'the other plan']) assert.ok(out.includes(kept), `${kept}\n${out}`);
    assert.ok(!out.includes('the release'), out);
  });
});

describe('API-09 rows of cells set apart by 2+ spaces whose columns do not line up', () => {
  it('become tab-separated cells, multi-word cells whole; pipe rows stay as they were', () => {
    const report = [
      '0VENDOR  VENDOR NAME                      CURRENT       1-30 DAYS      OVER 90 DAYS   TOTAL BALANCE',
      ' ------  ------------------------  ------------  ------------  ------------  -------------',
      ' 000118  ACME INDUSTRIAL SUPPLY          3,652.56        841.13           .00       8,389.06',
      ' 000702  MERIDIAN WASTE MGMT             3,803.54      3,264.12      4,118.50      12,536.85',
    ].join('\n');
    const out = compressText(`Which vendor owes most?\n\n${report}`, 'safe');
    assert.ok(out.includes('0VENDOR\tVENDOR NAME\tCURRENT\t1-30 DAYS\tOVER 90 DAYS\tTOTAL BALANCE'), out);
    assert.ok(out.includes(' 000702\tMERIDIAN WASTE MGMT\t3,803.54\t3,264.12\t4,118.50\t12,536.85'), out);
    const pipes = 'Stop                   | Trip 1 | Trip 2 | Trip 3\nHarbour Gate           | 07:05  | 07:35  | 08:05\nMill Lane              | 07:12  | 07:42  | 08:12\nCivic Square           | 07:21  | 07:51  | 08:21';
    assert.ok(!compressText(pipes, 'safe').includes('\t'));
  });
});
