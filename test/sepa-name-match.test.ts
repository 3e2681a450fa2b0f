/** API-138 name matching (EPC VoP outcomes): a table of request/holder pairs, traps included. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLOSE_MATCH_MIN_SCORE, editDistance, matchNames, prepareName } from '../src/services/sepa-vop/name-match.ts';

type Outcome = 'MATCH' | 'CLOSE_MATCH' | 'NO_MATCH';

// [typed by the payer, account holder, expected outcome, why]
const PAIRS: readonly [string, string, Outcome, string][] = [
  // Exact and folded
  ['Max Mustermann', 'Max Mustermann', 'MATCH', 'identical'],
  ['max mustermann', 'MAX MUSTERMANN', 'MATCH', 'case'],
  ['Mustermann Max', 'Max Mustermann', 'MATCH', 'word order'],
  ['Mustermann, Max', 'Max Mustermann', 'MATCH', 'comma form'],
  ['  Max   Mustermann ', 'Max Mustermann', 'MATCH', 'whitespace'],
  ['Max-Mustermann', 'Max Mustermann', 'MATCH', 'hyphen as separator'],
  ['José García', 'Jose Garcia', 'MATCH', 'diacritics'],
  ['Jose Garcia', 'José García', 'MATCH', 'diacritics, other side'],
  ['Müller', 'Mueller', 'MATCH', 'umlaut transliteration'],
  ['Hans Mueller', 'Hans Müller', 'MATCH', 'umlaut transliteration, other side'],
  ['Jürgen Groß', 'Juergen Gross', 'MATCH', 'ß → ss'],
  ['Strauß', 'Strauss', 'MATCH', 'ß → ss alone'],
  ['Søren Kierkegaard', 'Soeren Kierkegaard', 'MATCH', 'ø → oe'],
  ['Soren Kierkegaard', 'Søren Kierkegaard', 'MATCH', 'ø without transliteration'],
  ['Ærø Hansen', 'Aeroe Hansen', 'MATCH', 'æ → ae'],
  ['Muller', 'Müller', 'MATCH', 'umlaut stripped'],
  ['Mäkinen', 'Makinen', 'MATCH', 'Finnish ä stripped'],
  ['Åsa Lindqvist', 'Aasa Lindqvist', 'MATCH', 'å → aa'],
  ['Åsa Lindqvist', 'Asa Lindqvist', 'MATCH', 'å stripped'],
  ['Mu\u0308ller', 'Müller', 'MATCH', 'decomposed umlaut'],
  ['Michael Novak', 'Michal Novak', 'CLOSE_MATCH', 'Michael and Michal are different spellings, not a transliteration'],
  ['Łukasz Wałęsa', 'Lukasz Walesa', 'MATCH', 'ł → l'],
  ['Đorđe Petrović', 'Dorde Petrovic', 'MATCH', 'đ → d'],
  ['Þór Guðmundsson', 'Thor Gudmundsson', 'MATCH', 'þ → th, ð → d'],
  ['François Œuvre', 'Francois Oeuvre', 'MATCH', 'œ → oe'],
  ["O'Brien", 'OBrien', 'MATCH', 'apostrophe dropped'],
  ['Seán Ó Briain', 'Sean O Briain', 'MATCH', 'Irish accents'],
  ['Zoë Smith', 'Zoe Smith', 'MATCH', 'diaeresis'],
  ['Ｊｏｈｎ Ｓｍｉｔｈ', 'John Smith', 'MATCH', 'full-width letters (NFKD)'],
  ['Jean-Pierre Dupont', 'Jeanpierre Dupont', 'MATCH', 'joined compound'],
  ['J.R.R. Tolkien', 'J R R Tolkien', 'MATCH', 'dotted initials joined'],
  ['Dr. Anna Schmidt', 'Anna Schmidt', 'MATCH', 'honorific'],
  ['Mrs Jane Doe', 'Jane Doe', 'MATCH', 'honorific'],
  ['Smith and Sons Ltd', 'Smith & Sons Limited', 'MATCH', 'connector and Ltd = Limited'],
  ['The Acme Company Ltd', 'Acme Co. Limited', 'MATCH', 'leading article, Company = Co.'],
  // Legal forms recognised as forms
  ['Acme GmbH', 'ACME GmbH', 'MATCH', 'same form'],
  ['Acme GmbH', 'Acme Gesellschaft mit beschränkter Haftung', 'MATCH', 'long form of GmbH'],
  ['Acme Ltd', 'Acme Limited', 'MATCH', 'Ltd = Limited'],
  ['Acme Inc.', 'Acme Incorporated', 'MATCH', 'Inc = Incorporated'],
  ['Acme S.A.', 'Acme SA', 'MATCH', 'dotted SA'],
  ['Acme S.A.R.L.', 'Acme SARL', 'MATCH', 'dotted SARL'],
  ['Acme B.V.', 'Acme BV', 'MATCH', 'dotted BV'],
  ['Acme S.p.A.', 'Acme SpA', 'MATCH', 'dotted SpA'],
  ['Acme spol. s r.o.', 'Acme s.r.o.', 'MATCH', 'long Czech s.r.o.'],
  ['Kowalski Sp. z o.o.', 'Kowalski sp. z o.o.', 'MATCH', 'Polish sp. z o.o.'],
  ['Nordisk A/S', 'Nordisk AS', 'MATCH', 'Danish A/S'],
  ['Acme GmbH & Co. KG', 'Acme GmbH & Co KG', 'MATCH', 'GmbH & Co. KG'],
  ['AB Volvo', 'Volvo AB', 'MATCH', 'leading Swedish AB'],
  ['Rossi Costruzioni S.p.A.', 'ROSSI COSTRUZIONI SPA', 'MATCH', 'Italian company'],
  ['Société Exemple SARL', 'Societe Exemple S.A.R.L.', 'MATCH', 'French company, accents'],
  // Legal-form traps: never MATCH
  ['Acme s.r.o.', 'Acme a.s.', 'CLOSE_MATCH', 'different Czech forms'],
  ['Acme a.s.', 'Acme s.r.o.', 'CLOSE_MATCH', 'different Czech forms, reversed'],
  ['Acme GmbH', 'Acme AG', 'CLOSE_MATCH', 'GmbH vs AG'],
  ['Acme Ltd', 'Acme Inc', 'CLOSE_MATCH', 'Ltd vs Inc'],
  ['Acme SA', 'Acme SARL', 'CLOSE_MATCH', 'SA vs SARL'],
  ['Acme BV', 'Acme NV', 'CLOSE_MATCH', 'BV vs NV'],
  ['Acme SpA', 'Acme Srl', 'CLOSE_MATCH', 'SpA vs Srl'],
  ['Acme', 'Acme GmbH', 'CLOSE_MATCH', 'form omitted by the payer'],
  ['Acme GmbH', 'Acme', 'CLOSE_MATCH', 'form the directory lacks'],
  ['Acme Trading GmbH', 'Acme Trading AG', 'CLOSE_MATCH', 'two core words, other form'],
  // Initials and dropped middle names
  ['J. Smith', 'John Smith', 'CLOSE_MATCH', 'initial'],
  ['J Smith', 'John Smith', 'CLOSE_MATCH', 'initial without dot'],
  ['John Smith', 'J. Smith', 'CLOSE_MATCH', 'holder has the initial'],
  ['John Smith', 'John Michael Smith', 'CLOSE_MATCH', 'dropped middle name'],
  ['John Michael Smith', 'John Smith', 'CLOSE_MATCH', 'extra middle name'],
  ['John M. Smith', 'John Michael Smith', 'CLOSE_MATCH', 'middle initial'],
  ['J. M. Smith', 'John Michael Smith', 'CLOSE_MATCH', 'two initials'],
  ['Anna Smith', 'Anna Maria Louisa Smith', 'CLOSE_MATCH', 'two dropped middle names'],
  ['Garcia Lopez Jose', 'José García López', 'MATCH', 'Spanish double surname reordered'],
  ['Jose Garcia', 'José García López', 'CLOSE_MATCH', 'second surname dropped'],
  // Typos
  ['Jonh Smith', 'John Smith', 'CLOSE_MATCH', 'transposition'],
  ['John Smiht', 'John Smith', 'CLOSE_MATCH', 'transposition in surname'],
  ['Jon Smith', 'John Smith', 'CLOSE_MATCH', 'missing letter'],
  ['John Smyth', 'John Smith', 'CLOSE_MATCH', 'substitution'],
  ['Max Musterman', 'Max Mustermann', 'CLOSE_MATCH', 'dropped double letter'],
  ['Maximilian Mustermannn', 'Maximilian Mustermann', 'CLOSE_MATCH', 'extra letter, long name'],
  ['Katharina Schneidre', 'Katharina Schneider', 'CLOSE_MATCH', 'transposition, long name'],
  ['Christoph Schwarzenberg', 'Christoph Schwarzenbreg', 'CLOSE_MATCH', 'two-edit budget on long token'],
  ['Maria Garcia', 'Mario Garcia', 'CLOSE_MATCH', 'one letter in given name'],
  ['Acme Tradng GmbH', 'Acme Trading GmbH', 'CLOSE_MATCH', 'typo in company name'],
  // Truncations and different people: never MATCH
  ['Jan Tom', 'Jan Tomas', 'NO_MATCH', 'truncated surname is not a typo'],
  ['Jan Tomas', 'Jan Tom', 'NO_MATCH', 'truncated surname, reversed'],
  ['Jan Tomas', 'Jan Tomasz', 'CLOSE_MATCH', 'one letter more: a typo, never a match'],
  ['Smith', 'John Smith', 'NO_MATCH', 'surname alone'],
  ['John', 'John Smith', 'NO_MATCH', 'given name alone'],
  ['John Smith', 'Jane Smith', 'NO_MATCH', 'different given name (two edits in four letters)'],
  ['Peter Parker', 'Bruce Wayne', 'NO_MATCH', 'different person'],
  ['Max Mustermann', 'Erika Mustermann', 'NO_MATCH', 'same surname, other person'],
  ['Ann Lee', 'Anna Li', 'NO_MATCH', 'short tokens allow no edits'],
  ['Al Smith', 'Ali Smith', 'NO_MATCH', 'three-letter token: no typo budget'],
  ['Acme', 'Acme Trading GmbH', 'NO_MATCH', 'first word of a company'],
  ['Globex GmbH', 'Acme GmbH', 'NO_MATCH', 'same form, other company'],
  ['A. B.', 'Anna Berg', 'NO_MATCH', 'initials only'],
  ['John Smith', 'Smith John Ltd', 'CLOSE_MATCH', 'person vs company with same words'],
  ['Mark Johnson', 'Marc Johnsen', 'CLOSE_MATCH', 'typos in both tokens'],
  ['Xavier Dupont', 'Yann Dupont', 'NO_MATCH', 'different given names of the same family'],
  ['Müller GmbH', 'Miller GmbH', 'CLOSE_MATCH', 'one letter off after folding'],
  ['...', 'John Smith', 'NO_MATCH', 'no letters at all'],
];

describe('name matching table', () => {
  it('has at least 80 pairs and every outcome', () => {
    assert.ok(PAIRS.length >= 80, `${PAIRS.length} pairs`);
    for (const o of ['MATCH', 'CLOSE_MATCH', 'NO_MATCH']) assert.ok(PAIRS.some((p) => p[2] === o), o);
  });
  for (const [typed, holder, expected, why] of PAIRS) {
    it(`${JSON.stringify(typed)} vs ${JSON.stringify(holder)} → ${expected} (${why})`, () => {
      const m = matchNames(prepareName(typed), prepareName(holder));
      assert.equal(m.result, expected, `score ${m.score}`);
      assert.equal(m.code, { MATCH: 'MTCH', CLOSE_MATCH: 'CMTC', NO_MATCH: 'NMTC' }[expected]);
      assert.ok(m.score >= 0 && m.score <= 1);
      if (expected === 'MATCH') assert.equal(m.score, 1);
      if (expected === 'CLOSE_MATCH') {
        assert.equal(m.suggested_name, holder, 'suggests the holder name as the directory spells it');
        assert.ok(m.score >= CLOSE_MATCH_MIN_SCORE && m.score < 1);
      } else {
        assert.equal(m.suggested_name, undefined);
      }
    });
  }
});

describe('edit distance', () => {
  const table: [string, string, number][] = [
    ['john', 'jonh', 1],
    ['smith', 'smyth', 1],
    ['tom', 'tomas', 2],
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
    ['abc', 'abc', 0],
  ];
  for (const [a, b, d] of table) {
    it(`distance(${a}, ${b}) = ${d}`, () => {
      assert.equal(editDistance(a, b, 5), d);
      assert.equal(editDistance(b, a, 5), d);
    });
  }
  it('stops early past the cap', () => {
    assert.equal(editDistance('abcdefgh', 'zyxwvuts', 1), 2);
  });
});

describe('normalised form', () => {
  it('keeps legal forms apart from the name and folds them to one spelling', () => {
    const p = prepareName('Müller & Söhne Gesellschaft mit beschränkter Haftung');
    assert.deepEqual(p.forms, ['gmbh']);
    assert.deepEqual(p.tokens, ['muller', 'sohne']);
    assert.deepEqual(p.alt, ['mueller', 'soehne']);
  });
});
