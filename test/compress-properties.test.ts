/**
 * Properties of API-09 over the eval prompts and seeded random inputs, in every level:
 * retention (retention.ts: numbers, URLs, e-mails, quoted strings, inline code, identifiers, code
 * blocks, negations; content words in safe and balanced), determinism, idempotence, and that the
 * output is never longer in tokens than the input.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { compressText, LEVELS } from '../src/services/tokenslimmer/core.ts';
import { checkRetention, countNegations } from '../src/services/tokenslimmer/retention.ts';
import { slimPrompt } from '../src/services/tokenslimmer/slim.ts';
import { rng } from './helpers/rng.ts';

const promptsOf = (path: string): { id: string; prompt: string }[] =>
  readFileSync(new URL(path, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; prompt: string });
/** The development prompts and the handmade ones (few-shot, agent, table, e-mail, page, JSON; eval/README.md). */
const evalPrompts = [
  ...promptsOf('../eval/data/compress/prompts_dev.jsonl'),
  ...promptsOf('../eval/data/compress-handmade/fewshot.jsonl'),
  ...promptsOf('../eval/data/compress-handmade/structured.jsonl'),
  ...promptsOf('../eval/data/compress-handmade/fewshot2.jsonl'),
  ...promptsOf('../eval/data/compress-handmade/structured2.jsonl'),
  ...promptsOf('../eval/data/compress-handmade/fewshot3.jsonl'),
  ...promptsOf('../eval/data/compress-handmade/structured3.jsonl'),
  ...promptsOf('../eval/data/compress-handmade/fewshot4.jsonl'),
  ...promptsOf('../eval/data/compress-handmade/structured4.jsonl'),
];


const PIECES = [
  'the', 'a', 'an', 'is', 'was', 'be', 'very', 'really', 'just', 'cat', 'river', 'Paris', 'report', 'model', 'answer', 'quickly',
  'not', 'no', 'never', 'without', "don't", "isn't", 'cannot', 'nor', 'um', 'Um', 'uh', 'hmm', 'mm', 'you know', 'I mean',
  'please', 'Please', 'kindly', 'in order to', 'due to the fact that', 'a large number of', 'is able to', 'prior to', 'whether or not',
  'I would like you to', 'Could you please', 'As an AI language model,', 'Thank you so much!', 'basically', 'it should be noted that',
  'said that', 'told that', 'very very', 'the the', 'I I', 'go go go', 'that that', 'no no', '{vocalsound}', '[laughter]', '(inaudible)',
  '42', '3.14', '1,000,000', '2024-05-01', '7.6 mm', '4\u00a0in', 'https://example.com/a_b?x=1', 'www.example.org', 'ops@example.com',
  '"quoted   text"', "'single quoted'", '“curly quote”', '`inline  code`', 'camelCase', 'snake_case_name', 'v2', 'ES2004a', 'os.path.join()',
  '{placeholder}', '<|endoftext|>', '<b>bold</b>', '<p>para</p>', '<a href="https://x.io">link</a>', '**strong**', '*em*', '2 * 3 * 4',
  'Document [3](Title: Paris)', 'Passage [12](Title: A (b))', ', which was', ', who is', 'the answer is', 'a few', 'Okay ,', 'well ,', 'so ,', 'into the', "it 's", "do n't", " 've", '\u200b', '\u00a0\u00a0', '   ', '\t', ',', '.', '?', '!', ':', ';', '(', ')', '-', '\u2019', 'é', '数字', '👩‍💻', '\uE000', '\u0001', '\u0002', '\x0E\x10\x0F', 'A:', 'Q:',
];
const LINES = [
  '```python\ndef f(x):\n    return  x  # keep   spacing\n```',
  '{\n  "a": 1.0,\n  "b": [1, 2, "x  y"]\n}',
  '    indented   code line',
  '| col a  |  col b |',
  '',
  '',
  'Remember to answer in English and never skip a step.',
  'Do not use the the internet.',
  '(A) The ball is really not red',
  'B. please basically go in order to win',
  'Options:\n- The answer is very much yes\n- No, it is not\n1. um the the end',
  'Answer Choices: (A) the very best (B) please not in order to',
  '\u00a0line opening with a no-break space, um, the the end',
  '\u2003 \u00a0Please kindly go',
  '- Could you please \u2003answer \u00a0 now',
];

function randomPrompt(next: () => number): string {
  const lines: string[] = [];
  const n = 1 + Math.floor(next() * 12);
  for (let i = 0; i < n; i++) {
    if (next() < 0.2) {
      lines.push(LINES[Math.floor(next() * LINES.length)]!);
      continue;
    }
    if (next() < 0.1 && lines.length > 0) {
      lines.push(lines[Math.floor(next() * lines.length)]!); // duplicate an earlier line
      continue;
    }
    const words: string[] = [];
    const m = 1 + Math.floor(next() * 18);
    for (let j = 0; j < m; j++) words.push(PIECES[Math.floor(next() * PIECES.length)]!);
    lines.push(words.join(next() < 0.8 ? ' ' : '  '));
  }
  return lines.join(next() < 0.9 ? '\n' : '\r\n');
}

/** Sentences for turn-structured prompts: framing, instructions, answers, negations, values, end marks without a space. */
const SENTENCES = [
  "Let's think step by step.", 'The statements are logically consistent within each paragraph.', 'It does not have any curves or arches.',
  'So the answer is (A).', 'Answer with one word only.', 'As the game progresses, pairs of players trade balls.', 'Please answer in English, you know, basically.',
  'Do not use the internet at all!', 'Wait...what is this?', 'Hi!Bob is here.', 'The price is 42 dollars.', 'He said "no way" twice.', 'Um, I I think we should go.',
  'Never skip a step, not even once.', 'Return the result in order to finish.', 'Is it red?', 'Note: answer in one word.', 'Options:', '(A) yes', 'Yes.',
];
const TURN_LABELS = ['Q:', 'A:', 'User:', 'Ann:', 'Project Manager:', 'Answer:'];

/** A prompt of labelled turns, continuation lines and blank lines, where sentences recur (in a row, across lines and turns). */
function turnPrompt(next: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const lines: string[] = [];
  const n = 1 + Math.floor(next() * 14);
  for (let i = 0; i < n; i++) {
    const r = next();
    if (r < 0.12) lines.push('');
    else if (r < 0.2 && lines.length > 0) lines.push(pick(lines));
    else {
      const sentences: string[] = [];
      for (let k = 1 + Math.floor(next() * 4); k > 0; k--) {
        const s = next() < 0.15 && sentences.length > 0 ? sentences[sentences.length - 1]! : pick(SENTENCES);
        sentences.push(next() < 0.1 ? s.toUpperCase() : s);
      }
      lines.push((next() < 0.5 ? pick(TURN_LABELS) + ' ' : '') + sentences.join(next() < 0.9 ? ' ' : '  '));
    }
  }
  return lines.join('\n');
}

const RANDOM_CASES = 400;
/** The control characters core.ts uses as marks and placeholders: never in an output whose input had none. */
const RESERVED = /[\x01-\x04\x0E-\x1F]/;

describe('API-09 properties on the eval prompts', () => {
  for (const level of LEVELS) {
    it(`retains every protected item, negation and (safe/balanced) content word at ${level}`, () => {
      for (const { id, prompt } of evalPrompts) {
        const out = compressText(prompt, level);
        const check = checkRetention(prompt, out, level);
        assert.ok(check.ok, `${id} ${level}: ${JSON.stringify(check.missing.slice(0, 5))}`);
      }
    });
    it(`is deterministic and idempotent at ${level}`, () => {
      for (const { id, prompt } of evalPrompts) {
        const a = slimPrompt({ prompt, level });
        const b = slimPrompt({ prompt, level });
        assert.deepEqual(a, b, id);
        const again = slimPrompt({ prompt: a.compressed_content, level });
        assert.equal(again.compressed_content, a.compressed_content, `${id} ${level}`);
        assert.equal(again.status, 'UNCHANGED', `${id} ${level}`);
        assert.ok(a.compressed_tokens <= a.original_tokens);
      }
    });
  }
});

describe('API-09 properties on random inputs', () => {
  for (const level of LEVELS) {
    it(`holds retention, determinism and idempotence on ${RANDOM_CASES} seeded random prompts at ${level}`, () => {
      const next = rng(0x5eed + level.length);
      for (let i = 0; i < RANDOM_CASES; i++) {
        const prompt = randomPrompt(next);
        const out = compressText(prompt, level);
        const check = checkRetention(prompt, out, level);
        assert.ok(check.ok, `case ${i} ${level}: ${JSON.stringify(check.missing.slice(0, 5))}\n${JSON.stringify(prompt)}\n${JSON.stringify(out)}`);
        assert.ok(!RESERVED.test(out) || RESERVED.test(prompt), `case ${i} ${level}: an internal mark leaked\n${JSON.stringify(prompt)}\n${JSON.stringify(out)}`);
        assert.equal(compressText(prompt, level), out, `case ${i}: not deterministic`);
        assert.equal(compressText(out, level), out, `case ${i} ${level}: not idempotent\n${JSON.stringify(prompt)}\n${JSON.stringify(out)}`);
      }
    });
  }

  for (const level of LEVELS) {
    it(`holds retention and idempotence on ${RANDOM_CASES} seeded prompts of labelled turns with recurring sentences at ${level}`, () => {
      const next = rng(0x7ab1e + level.length);
      for (let i = 0; i < RANDOM_CASES; i++) {
        const prompt = turnPrompt(next);
        const out = compressText(prompt, level);
        const check = checkRetention(prompt, out, level);
        assert.ok(check.ok, `case ${i} ${level}: ${JSON.stringify(check.missing.slice(0, 5))}\n${JSON.stringify(prompt)}\n${JSON.stringify(out)}`);
        assert.equal(compressText(out, level), out, `case ${i} ${level}: not idempotent\n${JSON.stringify(prompt)}\n${JSON.stringify(out)}`);
      }
    });
  }

  it('keeps the exact number of negations when no sentence repeats', () => {
    const next = rng(7);
    const vocab = ['cat', 'river', 'report', 'not', 'never', 'no', 'without', "won't", 'um', 'please', 'the', 'is', 'in order to', 'basically', 'you know'];
    for (let i = 0; i < 300; i++) {
      const sentences = Array.from({ length: 1 + Math.floor(next() * 5) }, (_, k) => {
        const words = Array.from({ length: 2 + Math.floor(next() * 8) }, () => vocab[Math.floor(next() * vocab.length)]!);
        return `S${i}x${k} ${words.join(' ')}.`;
      });
      const prompt = sentences.join(' ');
      for (const level of LEVELS) {
        assert.equal(countNegations(compressText(prompt, level)), countNegations(prompt), `${level}: ${prompt}`);
      }
    }
  });
});

describe('API-09 time grows linearly with the input', () => {
  // Four times the input may take about four times as long; a pass that is quadratic takes
  // sixteen. Each case is timed at 32 and 128 KiB, or at 128 and 512 KiB where the square only
  // shows on big inputs (best of two runs; a small fixed slack absorbs timer noise on short
  // runs). Cases: what a scan tried again from every position, or a string asked about its end
  // while it grew (which flattens it each time).
  const BIG = new Set(['a block tag on every line', "one speaker's many turns", 'few-shot examples quoting many values', 'quoted attribution lines']);
  const cases: Record<string, (n: number) => string> = {
    'a run of backticks': (n) => '`'.repeat(n),
    'backticks inside a line': (n) => 'a ' + '`'.repeat(n - 4) + ' b',
    'unclosed <pre> tags': (n) => '<pre>'.repeat(n / 5),
    'an unclosed <pre> on every line': (n) => 'x <pre> y\n'.repeat(n / 10),
    'a block tag on every line': (n) => 'x <div> y\n'.repeat(n / 10),
    "one speaker's many turns": (n) => `Bob: hi there\n${Array.from({ length: n / 32 }, (_, i) => `Ann: point ${i} about the plan\n`).join('')}Bob: ok`,
    'fence lines': (n) => '```\n'.repeat(n / 4),
    'unclosed comments on every line': (n) => '<!-- a\n'.repeat(n / 7),
    'labelled lines': (n) => 'Q: a\nA: b\n'.repeat(n / 10),
    'comma-separated lines': (n) => 'a,b,c\n'.repeat(n / 6),
    'headings': (n) => '# a\n'.repeat(n / 4),
    // boilerplate.ts reads each quote after an attribution line to its end (once per quote)
    'quoted attribution lines': (n) => 'On Mon, Ann wrote:\n' + '> Ann wrote:\n'.repeat(n / 13) + 'ok then',
    // page-boxes.ts reads a contents list's entries against the text's lines (one count per text)
    'contents labels over long lists': (n) => 'Skip to content\n' + Array.from({ length: n / 40 }, (_, i) => (i % 50 === 0 ? 'On this page\n' : `Section ${i}\n`)).join(''),
    // demos.ts looks each quoted value of few-shot examples up in their text
    'few-shot examples quoting many values': (n) => Array.from({ length: n / 64 }, (_, i) => `Text: Item ${i} is "the box ${i}" here.\nOutput: "the box ${i}"\n\n`).join('') + 'Text: a new one\nOutput:',
  };
  const best = (text: string, level: (typeof LEVELS)[number]): number => {
    let ms = Infinity;
    for (let r = 0; r < 2; r++) {
      const t0 = performance.now();
      compressText(text, level);
      ms = Math.min(ms, performance.now() - t0);
    }
    return ms;
  };
  for (const [name, make] of Object.entries(cases)) {
    it(`on ${name}`, () => {
      for (const level of ['safe', 'balanced'] as const) {
        const kib = BIG.has(name) ? 128 : 32;
        const small = best(make(kib * 1024), level);
        const large = best(make(4 * kib * 1024), level);
        assert.ok(large < 8 * small + 40, `${level}: ${small.toFixed(1)} ms at ${kib} KiB, ${large.toFixed(1)} ms at ${4 * kib} KiB`);
      }
    });
  }
});

describe('API-09 on adversarial inputs', () => {
  const N = 64 * 1024;
  // The structure passes' worst cases (structure.ts), at 32 KiB.
  const M = 32 * 1024;
  const cases: Record<string, string> = {
    'lines opening with an unclosed bracket': '[ unclosed text here\n'.repeat(N / 21),
    'unclosed code fences': '```\n'.repeat(N / 4),
    'unbalanced quotes': '"a '.repeat(N / 3),
    'stars and tags': '*a <b>'.repeat(N / 6),
    'nested open braces': '{"a":'.repeat(N / 5),
    'one long stutter': 'go '.repeat(N / 3) + 'um',
    'forged placeholders and marks': '\x0E\x10\x0F \u0001 \u0002 text\n'.repeat(N / 20),
    'an open brace on every line': '{\n'.repeat(M / 2),
    'an open bracket after a label on every line': 'x: [\n'.repeat(M / 5),
    'padded pipe rows': '| a   |  b |\n'.repeat(M / 12),
    'unclosed tags': '<a href="'.repeat(M / 9),
    'unclosed comments': '<!--'.repeat(M / 4),
    'tags between backticks on one line': '`<b>`'.repeat(M / 5),
    'repeated quoted lines': '> same line here\n'.repeat(M / 17),
    'aligned columns': 'aa  bb  cc\n'.repeat(M / 11),
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`stays fast, retains and is idempotent on ${name}`, () => {
      for (const level of LEVELS) {
        const t0 = performance.now();
        const out = compressText(text, level);
        assert.ok(performance.now() - t0 < 2000, `${level}: too slow`);
        assert.ok(checkRetention(text, out, level).ok, level);
        assert.equal(compressText(out, level), out, level);
      }
    });
  }
});
