/**
 * API-09 structure passes (structure.ts), as properties over seeded random JSON and random tables
 * in every level: every JSON block of the output parses to exactly what the input's block parses
 * to; a table keeps its rows and cells; aligned columns keep their cells; the passes are a fixed
 * point and the whole compressor stays idempotent and retentive.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compressText, LEVELS } from '../src/services/tokenslimmer/core.ts';
import { checkRetention } from '../src/services/tokenslimmer/retention.ts';
import { restructure } from '../src/services/tokenslimmer/structure.ts';
import { compactJson } from '../src/services/tokenslimmer/json-compact.ts';
import { tableCells } from '../src/services/tokenslimmer/pipe-tables.ts';
import { rng } from './helpers/rng.ts';

const CASES = 150;
const WORDS = ['the', 'please', 'um', 'very', 'in order to', 'Paris', 'not', 'x  y', '<b>b</b>', 'a < b', '&amp;', '"q"', "it's", 'é', '数字', '😭', 'don’t', '42', 'null', '-', '|', '\\', '\t', 'List<T>', '> quoted', '```', 'https://x.io/a?b=1'];

const pick = <T>(next: () => number, xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;

function randomString(next: () => number): string {
  const n = Math.floor(next() * 4);
  return Array.from({ length: n }, () => pick(next, WORDS)).join(next() < 0.5 ? ' ' : '  ');
}

function randomJson(next: () => number, depth: number): unknown {
  const r = next();
  if (depth > 3 || r < 0.35) {
    const s = next();
    if (s < 0.3) return randomString(next);
    if (s < 0.55) return Math.round((next() - 0.5) * 1e6) / (next() < 0.5 ? 1 : 1000);
    if (s < 0.65) return next() < 0.5;
    if (s < 0.7) return null;
    return pick(next, [0, -1, 1e21, 1.5e-7, 123456789012, 3.25]);
  }
  if (r < 0.65) return Array.from({ length: Math.floor(next() * 4) }, () => randomJson(next, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--) o[randomString(next) || `k${i}`] = randomJson(next, depth + 1);
  return o;
}

function randomContainer(next: () => number): unknown {
  const v = randomJson(next, 1);
  return typeof v === 'object' && v !== null ? v : [v, { v }];
}

/** The JSON value of each line (or fenced block) of `text` that parses as an object or array. */
function jsonValuesOf(text: string): unknown[] {
  const out: unknown[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.trim();
    if (!t.startsWith('{') && !t.startsWith('[')) continue;
    // The block runs to the first line at which what was read so far parses.
    for (let j = i; j < lines.length; j++) {
      try {
        out.push(JSON.parse(lines.slice(i, j + 1).join('\n')));
        i = j;
        break;
      } catch {
        /* read on */
      }
    }
  }
  return out;
}

/**
 * `value` as other serialisers print it: Python's json.dumps (", " and ": " on one line, or indented;
 * non-ASCII as \\uXXXX, surrogate pairs for emoji), PHP's json_encode (slashes escaped too), or
 * JSON.stringify with an indentation.
 */
function printJson(next: () => number, value: unknown): { text: string; style: string } {
  const style = pick(next, ['pretty', 'pretty', 'python-line', 'python-indent', 'php-line']);
  const asciiOnly = (t: string): string => t.replace(/[^\x00-\x7f]/g, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0'));
  if (style === 'pretty') return { text: JSON.stringify(value, null, pick(next, [2, 4, '\t'])), style };
  if (style === 'python-indent') return { text: asciiOnly(JSON.stringify(value, null, pick(next, [2, 4]))), style };
  // One line with Python's separators: an indented print with its line breaks taken out (JSON strings hold none).
  const line = JSON.stringify(value, null, 1).replace(/,\n */g, ', ').replace(/\n */g, '');
  return { text: style === 'php-line' ? asciiOnly(line).replaceAll('/', '\\/') : asciiOnly(line), style };
}

/** The JSON value that follows `prefix` on each line of `text` that starts with it (running over lines until it parses). */
function jsonAfter(text: string, prefix: string): unknown[] {
  const out: unknown[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith(prefix)) continue;
    for (let j = i; j < lines.length; j++) {
      try {
        out.push(JSON.parse(lines.slice(i, j + 1).join('\n').slice(prefix.length)));
        i = j;
        break;
      } catch {
        /* read on */
      }
    }
  }
  return out;
}

describe('API-09 JSON blocks (property)', () => {
  for (const level of LEVELS) {
    it(`every JSON block of the output parses to the input block's value, compacted, at ${level}`, () => {
      const next = rng(0x1500 + level.length);
      for (let i = 0; i < CASES; i++) {
        const value = randomContainer(next);
        const indent = pick(next, [2, 4, '\t']);
        const pretty = JSON.stringify(value, null, indent);
        const fenced = next() < 0.4;
        const prompt = `Please read the tool output below.\n${fenced ? '```json\n' : ''}${pretty}${fenced ? '\n```' : ''}\nIt is, um, very important.`;
        const out = compressText(prompt, level);
        const values = jsonValuesOf(out);
        assert.equal(values.length, 1, `case ${i} ${level}: one JSON block\n${prompt}\n---\n${out}`);
        assert.deepEqual(values[0], value, `case ${i} ${level}`);
        if (pretty.includes('\n')) assert.ok(out.includes(JSON.stringify(value)), `case ${i} ${level}: compacted\n${out}`);
        assert.equal(compressText(out, level), out, `case ${i} ${level}: idempotent`);
        assert.ok(checkRetention(prompt, out, level).ok, `case ${i} ${level}: retention`);
      }
    });

    it(`JSON after a label, on one line or escaped as Python and PHP print it, keeps its value at ${level}`, () => {
      const next = rng(0x2600 + level.length);
      for (let i = 0; i < CASES; i++) {
        const value = randomContainer(next);
        const { text, style } = printJson(next, value);
        const prefix = pick(next, ['Observation: ', 'Tool Args: ', 'args = ', '<-- ', '']);
        // "<-- " opens a value only at the end of its line (a pretty print); one-line values need a label.
        const usable = prefix !== '<-- ' || text.includes('\n');
        const prompt = `Thought: I should look it up.\n${usable ? prefix : ''}${text}\nThought: I now know the final answer.`;
        const out = compressText(prompt, level);
        const values = jsonAfter(out, usable ? prefix : '');
        assert.equal(values.length, 1, `case ${i} ${level} ${style}: one JSON block\n${prompt}\n---\n${out}`);
        assert.deepEqual(values[0], value, `case ${i} ${level} ${style}\n${prompt}\n---\n${out}`);
        // Compacted, escapes written as characters (JSON.stringify's form), unless it is one line already in that form;
        // a one-line list of numbers stays as printed (a program's output).
        const printed = !text.includes('\n') && /^\[[-+\d.eE, \t[\]]*\]$/.test(text);
        assert.ok(out.includes(printed ? text : JSON.stringify(value)), `case ${i} ${level} ${style}: compacted\n${prompt}\n---\n${out}`);
        assert.equal(compressText(out, level), out, `case ${i} ${level}: idempotent`);
        assert.ok(checkRetention(prompt, out, level).ok, `case ${i} ${level}: retention`);
      }
    });
  }

  it(`a fenced object body without its braces (a README's part of a settings file) is compacted member for member`, () => {
    const next = rng(0x3700);
    for (let i = 0; i < CASES; i++) {
      const value: Record<string, unknown> = {};
      for (let k = 1 + Math.floor(next() * 3); k > 0; k--) value[`key${k}`] = randomContainer(next);
      const pretty = JSON.stringify(value, null, 2);
      const members = pretty.slice(1, -1).replace(/^\n|\n$/g, '').replace(/^  /gm, '');
      for (const level of LEVELS) {
        const prompt = `Add to your settings:\n\n\`\`\`json\n${members}\n\`\`\`\n\nThen restart.`;
        const out = compressText(prompt, level);
        const body = /```json\n([^]*?)\n```/.exec(out)?.[1];
        assert.ok(body !== undefined, `case ${i} ${level}: the fence stays\n${out}`);
        assert.deepEqual(JSON.parse(`{${body}}`), value, `case ${i} ${level}\n${prompt}\n---\n${out}`);
        assert.equal(body, JSON.stringify(value).slice(1, -1), `case ${i} ${level}: compacted`);
        assert.equal(compressText(out, level), out, `case ${i} ${level}: idempotent`);
        assert.ok(checkRetention(prompt, out, level).ok, `case ${i} ${level}: retention`);
      }
    }
    // Not an object's body as written: a trailing comma, a lone string, a member list and a value.
    for (const body of ['"a": {\n  "b": 1\n},', '"just a string"', '"a": 1\n"b": 2', '"a": 1, [2]']) {
      const prompt = `See:\n\`\`\`json\n${body}\n\`\`\``;
      assert.equal(compressText(prompt, 'safe'), prompt, body);
    }
  });

  it('compacts JSON with every token as written; leaves what is no JSON', () => {
    assert.equal(compactJson('{\n  "a": [1, 2],\n  "b": "x  y"\n}'), '{"a":[1,2],"b":"x  y"}');
    // Numbers keep their spelling, keys their order (JSON.parse puts "359" first) and duplicates.
    const literal: [string, string][] = [
      ['{"a": 1.0}', '{"a":1.0}'], ['{"a": 1e5, "b": -0}', '{"a":1e5,"b":-0}'], ['{"total_usd": 1284.00}', '{"total_usd":1284.00}'],
      ['{"id": 12345678901234567890}', '{"id":12345678901234567890}'], ['{"76W": "Boeing", "359": "Airbus"}', '{"76W":"Boeing","359":"Airbus"}'],
      ['{"a": 1, "a": 2}', '{"a":1,"a":2}'],
    ];
    for (const [s, want] of literal) assert.equal(compactJson(s), want, s);
    // Not JSON as written, though JSON without the spaces: [12], true.
    const kept = ['[1, 2,]', '{"a": "line\nbreak"}', '[1 2]', '[-1 0]', '{"a": tr ue}', '[1, 2 3]'];
    for (const k of kept) assert.equal(compactJson(k), undefined, k);
    // Escapes of characters one cannot see, of markup characters and of ASCII letters stay as escapes.
    for (const e of ['\\u200b', '\\u00a0x', '\\u003cb\\u003e', '\\u0041', '\\u2028']) assert.equal(compactJson(`{"a": "${e}"}`), `{"a":"${e}"}`, e);
  });

  it('writes escaped printable non-ASCII characters and escaped slashes as the characters', () => {
    const cases: [string, string][] = [
      ['{"a": "caf\\u00e9"}', '{"a":"café"}'],
      ['{"body": "I\\u2019ve no pop \\ud83d\\ude2d", "n": 2}', '{"body":"I’ve no pop 😭","n":2}'],
      ['{"url": "https:\\/\\/x.io\\/a"}', '{"url":"https://x.io/a"}'],
      ['["\\u6570\\u5b57", "\\u00E9"]', '["数字","é"]'],
      ['{"q": "a\\"b\\\\c\\n"}', '{"q":"a\\"b\\\\c\\n"}'],
      // A lone surrogate stays escaped, as JSON.stringify writes it.
      ['{"a": "\\ud83d"}', '{"a":"\\ud83d"}'],
    ];
    for (const [input, want] of cases) {
      const out = compactJson(input);
      assert.equal(out, want, input);
      assert.deepEqual(JSON.parse(out!), JSON.parse(input), input);
    }
  });
});

const PY_STRINGS = ['a', 'x  y', 'a, b', 'x: y', '[1, 2]', "it's", 'say "hi"', 'tab\there', 'back\\slash', 'é 数字 😭', 'please', '', '{k}'];

/** Python's repr() of `value` (dicts, lists, tuples as `{ tuple: [...] }`, strings, numbers, null → None, booleans). */
function pyRepr(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    const q = value.includes("'") && !value.includes('"') ? '"' : "'";
    const body = value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replaceAll(q, '\\' + q);
    return q + body + q;
  }
  if (Array.isArray(value)) return '[' + value.map(pyRepr).join(', ') + ']';
  const o = value as Record<string, unknown>;
  if (Array.isArray(o.tuple)) return o.tuple.length === 1 ? '(' + pyRepr(o.tuple[0]) + ',)' : '(' + o.tuple.map(pyRepr).join(', ') + ')';
  return '{' + Object.entries(o).map(([k, v]) => pyRepr(k) + ': ' + pyRepr(v)).join(', ') + '}';
}

function randomPy(next: () => number, depth: number): unknown {
  const r = next();
  if (depth > 3 || r < 0.4) return pick(next, [...PY_STRINGS, 0, -3, 2.5, 1e-7, null, true, false]);
  if (r < 0.6) return Array.from({ length: Math.floor(next() * 4) }, () => randomPy(next, depth + 1));
  if (r < 0.7) return { tuple: Array.from({ length: 1 + Math.floor(next() * 3) }, () => randomPy(next, depth + 1)) };
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 4); i > 0; i--) o[pick(next, PY_STRINGS) || `k${i}`] = randomPy(next, depth + 1);
  return o;
}

/** A compact literal with repr's space put back after each "," and ":" outside strings (not in "(x,)"). */
function respace(s: string): string {
  let out = '';
  for (let k = 0; k < s.length; k++) {
    const c = s[k]!;
    out += c;
    if (c === "'" || c === '"') {
      let j = k + 1;
      while (s[j] !== c) j += s[j] === '\\' ? 2 : 1;
      out += s.slice(k + 1, j + 1);
      k = j;
    } else if ((c === ',' && s[k + 1] !== ')') || c === ':') out += ' ';
  }
  return out;
}

describe('API-09 Python literals (property)', () => {
  for (const level of LEVELS) {
    it(`a one-line repr loses only the spaces repr writes after "," and ":" at ${level}`, () => {
      const next = rng(0x3700 + level.length);
      let compacted = 0;
      for (let i = 0; i < CASES; i++) {
        const top = next() < 0.5 ? [randomPy(next, 1), 'x'] : { q: randomPy(next, 1), n: 1 };
        const repr = pyRepr(top);
        const prefix = pick(next, ['Observation: ', 'args: ', '<tools> ', 'Calling tools:\n']);
        const tail = prefix === '<tools> ' ? ' </tools>' : '';
        const prompt = `Thought: look it up.\n${prefix}${repr}${tail}\nThought: done.`;
        const out = compressText(prompt, level);
        const line = out.split('\n').find((l) => l.startsWith(prefix.trim()) || l.startsWith(repr.slice(0, 2)))!;
        const at = out.indexOf(repr.slice(0, 1) === '[' ? '[' : '{', out.indexOf(prefix.trim().split('\n')[0]!));
        assert.ok(line !== undefined && at !== -1, `case ${i} ${level}\n${prompt}\n---\n${out}`);
        const end = tail === '' ? out.indexOf('\nThought: done', at) : out.indexOf(tail, at);
        assert.equal(respace(out.slice(at, end)), repr, `case ${i} ${level}\n${prompt}\n---\n${out}`);
        if (out.slice(at, end) !== repr) compacted++;
        assert.equal(compressText(out, level), out, `case ${i} ${level}: idempotent`);
        assert.ok(checkRetention(prompt, out, level).ok, `case ${i} ${level}: retention ${JSON.stringify(checkRetention(prompt, out, level).missing)}\n${out}`);
      }
      // Every literal here holds a string and a separator: all are compacted.
      assert.equal(compacted, CASES, `${level}: compacted ${compacted} of ${CASES}`);
    });
  }
});

const CELLS = ['Ann', '30', '1,000.5', 'New  York', 'the very best', '`a | b`', 'x\\|y', '', 'um', 'please', '**bold**', 'https://x.io', '"quoted"', 'é', '-', ':'];

describe('API-09 tables (property)', () => {
  for (const level of LEVELS) {
    it(`a pipe table keeps its rows and cells at ${level}`, () => {
      const next = rng(0x7ab + level.length);
      for (let i = 0; i < CASES; i++) {
        const cols = 1 + Math.floor(next() * 4);
        const rows = 1 + Math.floor(next() * 5);
        const pad = (c: string): string => ' '.repeat(Math.floor(next() * 3)) + c + ' '.repeat(Math.floor(next() * 6));
        const body = Array.from({ length: rows }, () => Array.from({ length: cols }, () => pick(next, CELLS)));
        const header = Array.from({ length: cols }, (_, k) => `Col${k}`);
        const align = Array.from({ length: cols }, () => pick(next, ['---', ':---', '---:', ':-----:', '-']));
        const row = (cells: string[]): string => '|' + cells.map(pad).join('|') + '|';
        const table = [row(header), '|' + align.map(pad).join('|') + '|', ...body.map(row)];
        const prompt = `Here is the data, basically:\n\n${table.join('\n')}\n\nPlease answer in order to help.`;
        const out = compressText(prompt, level);
        // Outer pipes go where GFM allows (bareTables): a row is any line with a pipe.
        const outRows = out.split('\n').filter((l) => l.includes('|'));
        assert.equal(outRows.length, table.length, `case ${i} ${level}: rows\n${prompt}\n---\n${out}`);
        table.forEach((line, r) => {
          const want = tableCells(line);
          const got = tableCells(outRows[r]!);
          if (r === 1) assert.deepEqual(got.map((c) => [c.startsWith(':'), c.endsWith(':') && c.length > 1]), want.map((c) => [c.startsWith(':'), c.endsWith(':') && c.length > 1]), `case ${i}: alignment`);
          else assert.deepEqual(got, want, `case ${i} ${level}: cells of row ${r}\n${out}`);
        });
        assert.equal(compressText(out, level), out, `case ${i} ${level}: idempotent`);
        assert.ok(checkRetention(prompt, out, level).ok, `case ${i} ${level}: retention`);
      }
    });

    it(`space-aligned columns keep their cells, joined by tabs, at ${level}`, () => {
      const next = rng(0xf1d + level.length);
      // multi-word cells too: a single space inside a cell is no gutter, even where every other row is blank
      const words = ['web-1', 'db-0', 'Running', 'Pending', '1/1', '0/1', '12d', '3h', 'node-a', '10.0.0.7', 'Net sales', 'Cost of goods sold', 'in progress', 'db 0'];
      for (let i = 0; i < CASES; i++) {
        const cols = 2 + Math.floor(next() * 3);
        const rows = Array.from({ length: 3 + Math.floor(next() * 4) }, () => Array.from({ length: cols }, () => pick(next, words)));
        const widths = Array.from({ length: cols }, (_, k) => Math.max(...rows.map((r) => r[k]!.length)) + 2 + Math.floor(next() * 3));
        const lines = rows.map((r) => r.map((c, k) => (k === cols - 1 ? c : c.padEnd(widths[k]!))).join(''));
        const prompt = `Output of the command:\n${lines.join('\n')}\nWhich pods are pending?`;
        const out = compressText(prompt, level);
        const outRows = out.split('\n').filter((l) => l.includes('\t'));
        assert.deepEqual(outRows.map((l) => l.split('\t')), rows, `case ${i} ${level}\n${prompt}\n---\n${out}`);
        assert.equal(compressText(out, level), out, `case ${i} ${level}: idempotent`);
      }
    });
  }

  it('compacts the tables a program printed inside a fence without a language, and nothing else in it', () => {
    const mysql = [
      'What did the query return?',
      '',
      '```',
      'mysql> SELECT id, city FROM shipments',
      '    -> WHERE id > 70411;',
      '+-------+-----------+',
      '| id    | city      |',
      '+-------+-----------+',
      '| 70412 | Oslo      |',
      '| 70413 | Bergen    |',
      '+-------+-----------+',
      '2 rows in set (0.01 sec)',
      '```',
    ].join('\n');
    const out = compressText(mysql, 'safe');
    // The bottom border leaves a blank line: what follows is no row of the table.
    assert.ok(out.includes('```\nmysql> SELECT id, city FROM shipments\n    -> WHERE id > 70411;\n|id|city|\n|-|-|\n|70412|Oslo|\n|70413|Bergen|\n\n2 rows in set (0.01 sec)\n```'), out);
    const pods = '```console\n$ kubectl get pods\nNAME          READY   STATUS    RESTARTS   AGE\nweb-7d4b9     1/1     Running   0          3d\ndb-0          0/1     Pending   2          5m\n```';
    assert.equal(compressText(pods, 'safe'), '```console\n$ kubectl get pods\nNAME\tREADY\tSTATUS\tRESTARTS\tAGE\nweb-7d4b9\t1/1\tRunning\t0\t3d\ndb-0\t0/1\tPending\t2\t5m\n```');
    // A header that sets its names one space apart over right-aligned numbers (ps aux, df -h).
    const ps = '```\nUSER         PID %CPU %MEM COMMAND\nroot           1  0.0  0.1 /sbin/init\nredis       1107  0.3  1.6 /usr/bin/redis-server\n```';
    assert.equal(compressText(ps, 'safe'), '```\nUSER\tPID\t%CPU\t%MEM COMMAND\nroot\t1\t0.0\t0.1 /sbin/init\nredis\t1107\t0.3\t1.6 /usr/bin/redis-server\n```');
    // A header name of two words over short cells stays one cell ("NOMINATED NODE").
    const wide = '```\nNAME     NODE     NOMINATED NODE   READINESS GATES\nweb-1    node-a   <none>           <none>\ndb-0     node-b   <none>           <none>\n```';
    assert.equal(compressText(wide, 'safe'), '```\nNAME\tNODE\tNOMINATED NODE\tREADINESS GATES\nweb-1\tnode-a\t<none>\t<none>\ndb-0\tnode-b\t<none>\t<none>\n```');
    // A table whose rows do not all part on the same columns stays whole, never half joined.
    const ragged = '```\nUSER    PID  START   TIME COMMAND\nroot      1  May27   0:41 /sbin/init\nroot   2209  May27   0:00 nginx -g daemon on; master_process on;\napp   48213  Jun03 1872:14 java -jar app.jar\n```';
    assert.equal(compressText(ragged, 'safe'), ragged);
    for (const level of LEVELS) {
      for (const text of [mysql, pods, ps]) {
        const o = compressText(text, level);
        assert.equal(compressText(o, level), o, `${level} idempotent`);
        assert.ok(checkRetention(text, o, level).ok, `${level} retention`);
      }
    }
  });

  it('leaves fences of code as they were: a language of code, aligned assignments and config keys in a bare fence', () => {
    const fences = [
      '```sql\n+-------+------+\n| id    | city |\n+-------+------+\n| 1     | Oslo |\n+-------+------+\n```',
      '```python\nNAME      AGE\nann       30\nbob       4\n```',
      '```\nx = 1        # one\nyy = 22      # two\nzzz = 333    # three\n```',
      '```\nname:      web\nimage:     nginx\nreplicas:  3\n```',
      '```\nCREATE TABLE t (\n  id       INT          NOT NULL,\n  name     VARCHAR(40)  NOT NULL,\n  city     TEXT         NULL\n);\n```',
    ];
    for (const f of fences) for (const level of LEVELS) assert.ok(compressText(`Look at this:\n\n${f}`, level).endsWith(f), `${level}: ${f}`);
  });

  it('leaves prose that merely holds double spaces, and indented code, as they were', () => {
    const prose = 'The cat sat.  Then it left.\nA dog came.  It barked twice.\nWe went home.  Night fell.';
    assert.equal(restructure(prose), prose);
    const code = '    x = 1      # one\n    yy = 22    # two\n    zzz = 333  # three';
    assert.equal(restructure(code), code);
  });

  it('reads the padding after list markers as no column gutter, a column of markers beside cells still as columns', () => {
    const list = '*   [Culture](/culture)\n*   [Technology](/technology)\n*   [Business](/business)\n1.  Plums';
    assert.equal(compressText(list, 'safe'), '* [Culture](/culture)\n* [Technology](/technology)\n* [Business](/business)\n1. Plums');
    const diff = '-   old.txt   12 KB\n+   new.txt   14 KB\n-   tmp.log   1 KB';
    assert.equal(compressText(diff, 'safe'), '-\told.txt\t12 KB\n+\tnew.txt\t14 KB\n-\ttmp.log\t1 KB');
  });

  it('compressText is idempotent and keeps its values over random mixes of tables, boxes, turns, notices and JSON', () => {
    const next = rng(0xb0c5);
    const parts = ['+---+----+', '+===+====+', '| 1 | 22 |', '| a  | b |', ' a | b ', '---+---', '|-|-|', '| x |', '|  | 2 |', '- item', 'Ann: so , you know , it sort of works .', 'Bob: yes .', 'Ann: we start at 9 .', '', 'Text line here.', '{\n  "a": 1\n}', '[link](https://x.io/a)', 'CAUTION: This email originated from outside of the organization. Do not click links.', 'Terms | Privacy Policy', 'Hope this helps!', 'This e-mail is confidential and intended solely for the addressee. Call 020 7946 0000. Any copying is strictly prohibited.', '> quoted line that is long enough', 'On Mon, Ann wrote:', '┌───┬────┐', '│ 1 │ 22 │', '├───┼────┤', '╞═══╪════╡', '└───┴────┘', '├── src', '│   └── x.ts', 'Home', 'Log in', 'Privacy Policy', 'We use cookies to improve your experience.', 'Accept all', '-------  ------', '|---+----|', '```', '```console', 'NAME    READY   AGE', 'web-1   1/1     3d', 'x = 1      # one', 'USER   PID %CPU', 'root     1  0.0'];
    for (let i = 0; i < 400; i++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 10) }, () => pick(next, parts)).join('\n');
      for (const level of LEVELS) {
        const out = compressText(text, level);
        assert.equal(compressText(out, level), out, `${level} idempotent: ${JSON.stringify(text)}`);
        assert.ok(checkRetention(text, out, level).ok, `${level} retention: ${JSON.stringify(text)}`);
      }
    }
  });

  it('is a fixed point', () => {
    const next = rng(99);
    for (let i = 0; i < 300; i++) {
      const parts = Array.from({ length: 1 + Math.floor(next() * 6) }, () =>
        pick(next, ['| a  |  b |', '|:--|--:|', '<p>x &amp; y</p>', '> quoted line here that is long', 'quoted line here that is long', '-- ', 'Ann Lee', '{\n  "a": 1\n}', 'NAME   AGE\nAnn    30\nBob    4', '<a href="u" class="c">t</a>', '&lt;div&gt;', '+---+----+', '+===+====+', '| 1 | 22 |', ' a | b ', '---+---', '']),
      );
      const once = restructure(parts.join('\n'));
      assert.equal(restructure(once), once, JSON.stringify(parts));
    }
  });
});

describe('WebVTT voice spans', () => {
  const vtt = 'WEBVTT\n\n00:00:01.000 --> 00:00:05.500\n<v Ann Lee>Okay, the first item is the budget.</v>\n\n00:00:05.500 --> 00:00:09.000\n<v.loud Bob>We need to cut it by 10 percent.</v>';
  for (const level of LEVELS) {
    it(`become transcript labels, timings kept, at ${level}`, () => {
      const out = compressText(vtt, level);
      assert.ok(out.includes('Ann Lee:') && out.includes('Bob:'), out);
      assert.ok(!out.includes('<v') && !out.includes('</v>'), out);
      assert.ok(out.includes('00:00:01.000 --> 00:00:05.500') && out.includes('00:00:05.500 --> 00:00:09.000'), out);
      assert.ok(checkRetention(vtt, out, level).ok);
      assert.equal(compressText(out, level), out);
    });
  }

  it('a <v …> line in a text without cue timings stays', () => {
    const text = 'In the template, write\n<v Ann>like this</v>\nto mark a speaker.';
    assert.ok(compressText(text, 'safe').includes('<v Ann>like this</v>'));
  });
});

describe('tables keep each cell in its column', () => {
  it('an HTML cell that spans columns closes as many, so the cells after it keep their column', () => {
    const html = '<table><tr><th>Hall</th><th>Capacity</th><th>Step-free</th></tr><tr><td colspan="2">Studio</td><td>No</td></tr></table>';
    assert.equal(compressText(html, 'safe'), '|Hall|Capacity|Step-free|\n|Studio||No|');
  });

  it('a pipe inside an HTML cell is escaped', () => {
    assert.equal(compressText('<table><tr><td>A|B test</td><td>40</td></tr></table>', 'safe'), '|A\\|B test|40|');
  });

  it('an empty cell of a Confluence/Jira wiki table keeps a space ("||" starts a header cell there), a Markdown one closes up', () => {
    const wiki = '||Service||Owner||Team||\n|notifications|  |Growth|';
    assert.equal(compressText(wiki, 'safe'), '||Service||Owner||Team||\n|notifications| |Growth|');
    assert.equal(compressText(compressText(wiki, 'safe'), 'safe'), compressText(wiki, 'safe'));
    assert.equal(compressText('| a | b | c |\n|---|---|---|\n| 1 |   | 3 |', 'safe'), 'a|b|c\n-|-|-\n1||3');
  });
});

describe('quoted replies', () => {
  it('keeps a quote that an inline reply answers right under it, drops one said before with nothing under it', () => {
    const inline = 'Can you do Tuesday at 10:00?\nCan you bring the contract?\n\n> Can you do Tuesday at 10:00?\nYes, Tuesday works.\n> Can you bring the contract?\nNo, legal still has it.';
    assert.equal(compressText(inline, 'safe'), inline);
    const below = 'Thanks, see you Tuesday.\n\nCan you do Tuesday at 10:00? Bring the contract.\n\nOn Mon, Ann wrote:\n> Can you do Tuesday at 10:00? Bring the contract.';
    assert.equal(compressText(below, 'safe'), 'Thanks, see you Tuesday.\n\nCan you do Tuesday at 10:00? Bring the contract.\n\nOn Mon, Ann wrote:');
  });
});

