/**
 * `npm run eval:layouts`: API-01 on the handmade page layouts of test/fixtures/layouts (CMSs,
 * page builders, docs generators, news pages, legacy charsets; README there), beside the baseline
 * @mozilla/readability + linkedom + turndown in the same run. Per page and in total: the page's
 * main sentences found in the output, its boilerplate phrases kept, and whether the output holds
 * less than a fifth of the main text's characters ("short"). Text is compared lower-cased, letters
 * and digits only. Pages are decoded as a fetch without a Content-Type charset decodes them.
 *
 *   npm run eval:layouts [-- --verbose] [--dir=path/to/pages/]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { decodeBody } from '../src/fetch/charset.ts';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';
import { readabilityBaseline } from './lib/readability-baseline.ts';

const dirArg = process.argv.find((a) => a.startsWith('--dir='))?.slice(6);
const DIR = dirArg ? pathToFileURL(dirArg.endsWith('/') ? dirArg : `${dirArg}/`) : new URL('../test/fixtures/layouts/', import.meta.url);
const verbose = process.argv.includes('--verbose');
const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
const lines = (s: string) => s.split('\n').map((l) => l.trim()).filter(Boolean);

interface Score { found: number; kept: number; short: boolean }
const total = { pages: 0, main: 0, boiler: 0, ours: { found: 0, kept: 0, short: 0 }, base: { found: 0, kept: 0, short: 0 } };

function score(md: string, main: string[], boiler: string[]): Score {
  const out = norm(md);
  const mainChars = main.reduce((n, s) => n + norm(s).length, 0);
  return { found: main.filter((s) => out.includes(norm(s))).length, kept: boiler.filter((s) => out.includes(norm(s))).length, short: out.length < mainChars / 5 };
}

console.log('| page | main | API-01 found | kept | Readability found | kept |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const f of readdirSync(DIR).filter((f) => /^\d{2,3}-.*\.html$/.test(f)).sort((a, b) => parseInt(a, 10) - parseInt(b, 10))) {
  const [mainPart = '', boilPart = ''] = readFileSync(new URL(f.replace(/\.html$/, '.expected.txt'), DIR), 'utf8').split(/^---$/m);
  const main = lines(mainPart);
  const boiler = lines(boilPart);
  const { text } = decodeBody(new Uint8Array(readFileSync(new URL(f, DIR))), null, true);
  const ours = score(extractMarkdown({ html: text, url: 'https://example.test/2024/05/post', includeLinks: false }).markdown, main, boiler);
  const base = score(readabilityBaseline(text), main, boiler);
  total.pages++;
  total.main += main.length;
  total.boiler += boiler.length;
  for (const [t, s] of [[total.ours, ours], [total.base, base]] as const) {
    t.found += s.found;
    t.kept += s.kept;
    t.short += s.short ? 1 : 0;
  }
  if (verbose || ours.found < main.length || ours.kept > 0) {
    console.log(`| ${f.replace(/\.html$/, '')} | ${main.length} | ${ours.found}${ours.short ? ' short' : ''} | ${ours.kept}/${boiler.length} | ${base.found}${base.short ? ' short' : ''} | ${base.kept}/${boiler.length} |`);
  }
}
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;
console.log(`\n${total.pages} pages, ${total.main} main sentences, ${total.boiler} boilerplate phrases (pages found whole and clean are left out of the table but for --verbose):`);
for (const [name, t] of [['API-01', total.ours], ['Readability+linkedom+turndown', total.base]] as const) {
  console.log(`  ${name}: main sentences found ${t.found}/${total.main} (${pct(t.found, total.main)}), boilerplate kept out ${total.boiler - t.kept}/${total.boiler} (${pct(total.boiler - t.kept, total.boiler)}), short outputs ${t.short}`);
}
