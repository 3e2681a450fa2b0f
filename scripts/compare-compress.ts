/**
 * API-09: do two versions of the compressor give the same responses? For a change meant to make
 * the core faster without changing any output. Compares slimPrompt of this checkout with the one
 * under `--before DIR` (a copy of an older `src`, e.g. `git archive <commit> src | tar -x -C DIR`
 * with node_modules linked) byte for byte (JSON of the whole response), at every level, on:
 *
 *   - every record of every *.jsonl in eval/data/compress/ (or `--dir D`),
 *   - the 2-32 KB samples the benchmarks build from them (cut at a line end and not),
 *   - each of those with snippets inserted at seeded random places (tables, JSON, notices,
 *     disclaimers, fillers, passage headers, reserved and invisible characters, tabs, …),
 *   - each with CRLF line ends,
 *   - and every output compressed again at every level.
 *
 * Prints the count of differing responses and the first few; exits 1 when any differ.
 *
 *   node --import tsx scripts/compare-compress.ts --before /tmp/before [--dir eval/data/compress]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LEVELS } from '../src/services/tokenslimmer/core.ts';
import { slimPrompt } from '../src/services/tokenslimmer/slim.ts';
import { jsonObjects } from './lib/jsonl.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

const beforeDir = arg('--before');
if (beforeDir === undefined) {
  console.error('usage: node --import tsx scripts/compare-compress.ts --before DIR [--dir D]');
  process.exit(2);
}
const dir = arg('--dir') ?? fileURLToPath(new URL('../eval/data/compress/', import.meta.url));
const before = (await import(pathToFileURL(resolve(beforeDir, 'src/services/tokenslimmer/slim.ts')).href)) as { slimPrompt: typeof slimPrompt };

const prompts: string[] = [];
const byKind = new Map<string, string[]>();
for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
  for (const { record } of jsonObjects(readFileSync(join(dir, file), 'utf8'), () => {})) {
    if (typeof record.prompt !== 'string' || record.prompt === '') continue;
    prompts.push(record.prompt);
    const kind = typeof record.kind === 'string' ? record.kind : '';
    byKind.set(kind, [...(byKind.get(kind) ?? []), record.prompt]);
  }
}
// The benchmarks' samples: a kind's prompts joined up to a size, cut at a line end and not.
for (const texts of byKind.values()) {
  for (const size of [2_048, 4_096, 8_192, 10_240, 16_384, 32_768]) {
    let s = '';
    for (const t of texts) {
      s += t + '\n\n';
      if (s.length >= size) break;
    }
    s = s.slice(0, size);
    prompts.push(s, s.slice(0, s.lastIndexOf('\n') + 1 || s.length));
  }
}

const SNIPPETS = [
  'Facebook | Twitter | LinkedIn',
  'Terms · Privacy • Contact',
  'Please, could you explain this, please.',
  'soft\u00ADhyphen and zero\u200Bwidth \uFEFF',
  'forged \x01 mark \x0E\x10\x0F',
  'col a\tcol b\tcol c',
  'Sent from my iPhone',
  'Kind regards,',
  'Follow us',
  'CONFIDENTIALITY NOTICE: This e-mail is intended only for the addressee. If you received it in error, notify the sender.',
  'If you received this message in\nerror, delete it.',
  'This email originated from outside of the organization. Do not click links.',
  'Please consider the environment before printing this e-mail.',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '{"a": 1,\n  "b": [1, 2]}',
  'Ann: um, you know, I mean, kindly please do it.',
  'It is important to note that the value is 5, please.',
  '\u00A0\u00A0nbsp  run  ',
  '> quoted line\n> more',
  'Document [3]: The river is a long one and the delta is the widest.',
  '[2](Insulin) The hormone is a peptide that was found in 1921.',
  'Step 2: think. Ann: yes, you know, fine.',
];
let seed = 12_345;
const random = (n: number): number => ((seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff), seed % n);
for (const p of [...prompts]) {
  for (let v = 0; v < 3; v++) {
    const lines = p.split('\n');
    for (let k = 0; k < 4; k++) {
      const at = random(lines.length + 1);
      const snippet = SNIPPETS[random(SNIPPETS.length)]!;
      if (random(2) === 0 || at === lines.length) lines.splice(at, 0, snippet);
      else {
        const c = random(lines[at]!.length + 1);
        lines[at] = `${lines[at]!.slice(0, c)} ${snippet} ${lines[at]!.slice(c)}`;
      }
    }
    prompts.push(lines.join('\n'));
  }
}
for (const p of [...prompts]) prompts.push(p.replace(/\n/g, '\r\n'));

let compared = 0;
const differ: string[] = [];
const compare = (prompt: string, level: (typeof LEVELS)[number]): string => {
  const now = JSON.stringify(slimPrompt({ prompt, level }));
  compared++;
  if (JSON.stringify(before.slimPrompt({ prompt, level })) !== now) differ.push(`${level}: ${JSON.stringify(prompt.slice(0, 80))}`);
  return (JSON.parse(now) as { compressed_content: string }).compressed_content;
};
for (const level of LEVELS) {
  for (const prompt of prompts) {
    const out = compare(prompt, level);
    for (const again of LEVELS) compare(out, again);
  }
}
console.log(`${differ.length} of ${compared} responses differ from ${beforeDir}`);
for (const d of differ.slice(0, 10)) console.log(`  ${d}`);
process.exit(differ.length === 0 ? 0 : 1);
