/**
 * Which lines the English word tables may touch. `balanced` and `aggressive` rewrite prose by
 * English tables (fillers, hedges, articles, forms of "to be"); in another language the same
 * letters are other words: German "Er hat", "was du meinst", Dutch "Het is", French "Il a un
 * chien", Portuguese "e a porta", Italian "un giardino". A line that reads as another language
 * keeps its words; the structure, whitespace and markup passes apply to every line.
 */

/**
 * Words frequent in English and rare as words of other languages written in Latin script ("is",
 * "was", "we", "of" are Dutch or German words too, so they are not here). Case-sensitive "I".
 */
const ENGLISH_MARK = String.raw`\b(?:[Tt]he|[Aa]nd|[Tt]o|[Aa]re|[Tt]hat|[Tt]his|[Ww]ith|[Yy]ou|[Ii]t|[Hh]ave|[Hh]as|[Ww]hat|[Ww]ere|[Yy]es|[Yy]eah|[Oo]kay|I)\b`;
const ENGLISH_MARK_RE = new RegExp(ENGLISH_MARK, 'g');
const ENGLISH_MARK_TEST_RE = new RegExp(ENGLISH_MARK);

/**
 * Function words of German, French, Spanish, Portuguese, Italian and Dutch that are no English
 * words (so not "die", "van", "per", "do", "no", "an", "on", "a"), nor English disfluencies
 * (Portuguese "um", Dutch "er": an English transcript is full of them). A line taken for foreign
 * by mistake (a data row of "NA", "y = e") only keeps its words: the error is safe.
 */
const FOREIGN_WORDS = [
  // German
  'der', 'das', 'und', 'ist', 'nicht', 'ein', 'eine', 'einen', 'einem', 'mit', 'für', 'auf', 'sich', 'dem', 'von', 'zu', 'ich',
  'du', 'wir', 'sie', 'auch', 'noch', 'wie', 'oder', 'aber', 'wenn', 'dass', 'sind', 'haben', 'wird', 'werden', 'bei', 'nach',
  'über', 'kein', 'keine', 'nur', 'schon', 'sehr',
  // French
  'le', 'la', 'les', 'et', 'est', 'des', 'une', 'du', 'pour', 'dans', 'que', 'qui', 'pas', 'ne', 'sur', 'avec', 'sont', 'ce',
  'cette', 'il', 'elle', 'nous', 'vous', 'ils', 'au', 'aux', 'mais', 'ou', 'être', 'très', 'leur', 'je', 'aussi', 'à',
  // Spanish
  'el', 'los', 'las', 'es', 'del', 'una', 'para', 'con', 'por', 'se', 'su', 'como', 'más', 'pero', 'está', 'son', 'lo', 'al', 'muy',
  'también', 'cuando', 'porque', 'fue', 'tiene', 'hay', 'esta', 'este', 'eso', 'y',
  // Portuguese
  'os', 'uma', 'da', 'dos', 'das', 'com', 'não', 'mas', 'mais', 'são', 'ao', 'pelo', 'pela', 'você', 'em', 'ele', 'ela', 'foi',
  'tem', 'muito', 'também', 'isso', 'na', 'nos', 'nas', 'seu', 'sua', 'é', 'e',
  // Italian
  'il', 'gli', 'della', 'di', 'che', 'non', 'sono', 'anche', 'ma', 'più', 'questo', 'questa', 'nel', 'alla', 'molto', 'perché', 'è',
  // Dutch
  'de', 'het', 'een', 'en', 'niet', 'dat', 'zijn', 'op', 'te', 'met', 'voor', 'ook', 'maar', 'als', 'bij', 'nog', 'naar', 'wordt',
];
const FOREIGN_SET: ReadonlySet<string> = new Set(FOREIGN_WORDS);
/**
 * A run of letters and digits: a foreign word is such a whole run (\b is ASCII-only: "für",
 * "très" end in letters it does not know). Runs are looked up in FOREIGN_SET, which is faster
 * than one alternation behind a Unicode lookbehind.
 */
const RUN_RE = /[\p{L}\p{N}]+/gu;
/** A run no longer than the longest foreign word is looked up. */
const FOREIGN_MAX_CHARS = Math.max(...FOREIGN_WORDS.map((w) => w.length));

/** At least `min` foreign function words in `line`. */
function hasForeignWords(line: string, min: number): boolean {
  let found = 0;
  RUN_RE.lastIndex = 0;
  for (let m = RUN_RE.exec(line); m !== null; m = RUN_RE.exec(line)) {
    const w = m[0];
    if (w.length <= FOREIGN_MAX_CHARS && FOREIGN_SET.has(w.toLowerCase()) && ++found >= min) return true;
  }
  return false;
}
/** Foreign function words that make a line foreign when it holds no English one. */
const FOREIGN_MIN = 2;

/**
 * Per line of `text`, 1 where it reads as another language than English: two or more foreign
 * function words and no English one. Null when no line does (most prompts): one scan.
 */
export function foreignLines(text: string): Uint8Array | null {
  let marks: Uint8Array | null = null;
  let english = 0;
  let foreign = 0;
  // Line by line without splitting: most lines of an English prompt hold an English word, and
  // only the others are scanned for foreign ones.
  for (let from = 0, i = 0; from <= text.length; i++) {
    let to = text.indexOf('\n', from);
    if (to === -1) to = text.length;
    if (to - from >= 5) {
      const line = text.slice(from, to);
      if (ENGLISH_MARK_TEST_RE.test(line)) english++;
      else if (hasForeignWords(line, FOREIGN_MIN)) {
        (marks ??= new Uint8Array(lineCount(text)))[i] = 1;
        foreign++;
      } else (marks ??= new Uint8Array(lineCount(text)))[i] = UNDECIDED;
    }
    from = to + 1;
  }
  if (marks === null || foreign === 0) return null;
  // A text mostly in another language (a pasted Spanish page under an English question): its
  // lines that show no language ("De martes a domingo: 10:00", a heading) are in that language
  // too, and keep their words ("a" is Spanish there). Else they are English.
  const undecided = foreign > english ? 1 : 0;
  for (let i = 0; i < marks.length; i++) if (marks[i] === UNDECIDED) marks[i] = undecided;
  return marks;
}
/** A line with neither an English nor enough foreign function words (foreignLines). */
const UNDECIDED = 2;

function lineCount(text: string): number {
  let n = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/**
 * `rewrite` over the runs of lines that are not foreign (foreignLines), `other` over the runs of
 * foreign lines (by default kept as they are). A text without foreign lines is rewritten whole, as one run.
 */
export function onEnglishRuns(text: string, rewrite: (run: string) => string, other: (run: string) => string = (run) => run): string {
  const foreign = foreignLines(text);
  if (foreign === null) return rewrite(text);
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    if (foreign[i] === 1) {
      while (j < lines.length && foreign[j] === 1) j++;
      out.push(other(lines.slice(i, j).join('\n')));
    } else {
      while (j < lines.length && foreign[j] !== 1) j++;
      out.push(rewrite(lines.slice(i, j).join('\n')));
    }
    i = j;
  }
  return out.join('\n');
}

const WORD_RE = /\p{L}+/gu;
/** Share of a text's words that are ENGLISH_MARK words from which the whole text reads as English (~20-30% in English prose). */
const ENGLISH_SHARE = 0.08;
/** The text's share is read on its first this many characters. */
const ENGLISH_SAMPLE_CHARS = 20_000;

/**
 * Whether the line at an offset is English: it holds a word of ENGLISH_MARK, or the whole text
 * reads as English (a transcript's "B: Um ." has no such word). Calls come in order of offset:
 * the last line read is remembered, so a text costs one pass.
 */
export class EnglishLines {
  #from = -1;
  #to = -1;
  #line = false;
  #text: boolean | undefined;

  at(all: string, offset: number): boolean {
    if (offset < this.#from || offset >= this.#to) {
      const start = all.lastIndexOf('\n', offset - 1) + 1;
      const end = all.indexOf('\n', offset);
      this.#from = start;
      this.#to = end === -1 ? all.length : end;
      this.#line = ENGLISH_MARK_TEST_RE.test(all.slice(this.#from, this.#to));
    }
    return this.#line || (this.#text ??= isEnglishText(all));
  }
}

function isEnglishText(all: string): boolean {
  const sample = all.length > ENGLISH_SAMPLE_CHARS ? all.slice(0, ENGLISH_SAMPLE_CHARS) : all;
  const words = sample.match(WORD_RE)?.length ?? 0;
  const marks = sample.match(ENGLISH_MARK_RE)?.length ?? 0;
  return words > 0 && marks >= words * ENGLISH_SHARE;
}
