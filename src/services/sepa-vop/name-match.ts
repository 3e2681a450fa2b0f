/**
 * Payee name matching for Verification of Payee (EPC VoP scheme rulebook, outcomes MTCH, CMTC,
 * NMTC; NOAP is decided by the caller). The rulebook leaves the algorithm to the PSP; this one is
 * deterministic and explainable:
 *
 *   1. normalise: special letters (ß→ss, ø→o|oe, æ→ae, œ→oe, đ→d, þ→th, ł→l …), lower case, NFKD
 *      with diacritics stripped, apostrophes dropped, dotted abbreviations joined (s.r.o. → sro),
 *      other punctuation → space; leading honorifics and "and/und/et" connectors dropped;
 *   2. legal-entity forms (GmbH, Ltd, SA, SARL, BV, s.r.o., a.s., S.p.A. …) are taken off the ends
 *      of the name and kept apart as canonical forms; long forms fold onto short ones
 *      ("Limited" = "Ltd", "Gesellschaft mit beschränkter Haftung" = "GmbH");
 *   3. tokens compare without order; a letter with two spellings matches either (Müller = Muller
 *      = Mueller, Søren = Soren = Soeren, Åsa = Aasa), without making Michael = Michal;
 *   4. MATCH needs the same tokens and the same forms. Otherwise tokens are paired: exact, then
 *      typos (Damerau-Levenshtein within the allowed edits), then initials; CLOSE_MATCH when only
 *      one side has tokens left over (dropped or extra middle names), enough tokens matched and the
 *      score reaches CLOSE_MATCH_MIN_SCORE. Everything else is NO_MATCH.
 */

/** A token of at least this length may differ by one edit and still count as a typo. */
export const TYPO_ONE_EDIT_MIN_LENGTH = 4;
/** A token of at least this length may differ by two edits. */
export const TYPO_TWO_EDITS_MIN_LENGTH = 8;
/** Credit an initial earns against the full token it stands for (0–1). */
export const INITIAL_CREDIT = 0.5;
/** Lowest score a CLOSE_MATCH may have; below it the outcome is NO_MATCH. */
export const CLOSE_MATCH_MIN_SCORE = 0.5;
/** Tokens that must pair up (when the holder's name has that many) before a CLOSE_MATCH is possible. */
export const MIN_MATCHED_TOKENS = 2;
/** Score of a name that matches except that one side omits the legal form. */
export const FORM_MISSING_SCORE = 0.9;
/** Score of a name that matches except for a different legal form (never a MATCH). */
export const FORM_CONFLICT_SCORE = 0.8;

export type NameMatchResult = 'MATCH' | 'CLOSE_MATCH' | 'NO_MATCH' | 'NOT_POSSIBLE';
export type NameMatchCode = 'MTCH' | 'CMTC' | 'NMTC' | 'NOAP';

export interface NameMatch {
  result: NameMatchResult;
  code: NameMatchCode;
  /** 0–1, three decimals. */
  score: number;
  /** The holder's name, on CLOSE_MATCH only. */
  suggested_name?: string;
}

/** A name prepared once (directory names at load time, request names per request). */
export interface PreparedName {
  readonly original: string;
  /** Core tokens: diacritics stripped (ü→u, ø→o, å→a). */
  readonly tokens: readonly string[];
  /** The same tokens with the transliterations (ü→ue, ø→oe, å→aa); equal to `tokens` where none applies. */
  readonly alt: readonly string[];
  /** Canonical legal forms, sorted. */
  readonly forms: readonly string[];
}

/** Letters NFKD does not decompose, and their plain spelling. */
const SPECIAL_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss', ẞ: 'ss', ø: 'o', æ: 'ae', œ: 'oe', đ: 'd', ð: 'd', þ: 'th', ł: 'l', ı: 'i', ħ: 'h', ŀ: 'l', ŧ: 't', ĸ: 'k',
};
/** The transliterated spelling where a language has one (German ä/ö/ü, Nordic ø, å). */
const TRANSLITERATED: Readonly<Record<string, string>> = { ...SPECIAL_LETTERS, ä: 'ae', ö: 'oe', ü: 'ue', ø: 'oe', å: 'aa' };
const SPECIAL_RE = new RegExp(`[${Object.keys(SPECIAL_LETTERS).join('')}]`, 'g');
const TRANSLIT_RE = new RegExp(`[${Object.keys(TRANSLITERATED).join('')}]`, 'g');
const MARKS = /\p{M}+/gu;
const APOSTROPHES = /['’‘`´ʼ]/g;
/** "A/S" and "I/S" (Danish forms) before the slash becomes a separator. */
const SLASH_FORMS = /(^|[^\p{L}\p{N}])([ai])\/s(?=$|[^\p{L}\p{N}])/gu;
const NOT_WORD = /[^\p{L}\p{M}\p{N}.]+/gu;

/** Canonical legal form → spellings (token sequences after normalisation). */
const LEGAL_FORMS: Readonly<Record<string, readonly string[]>> = {
  gmbhcokg: ['gmbh co kg', 'gmbh und co kg', 'gmbh cokg'],
  gmbh: ['gmbh', 'gesellschaft mit beschrankter haftung', 'mbh', 'ges mbh', 'gesmbh'],
  ag: ['ag', 'aktiengesellschaft'],
  kg: ['kg', 'kommanditgesellschaft'],
  kgaa: ['kgaa'],
  ohg: ['ohg'],
  ug: ['ug', 'ug haftungsbeschrankt'],
  ev: ['ev'],
  eg: ['eg'],
  ek: ['ek', 'ek fr'],
  se: ['se'],
  ltd: ['ltd', 'limited'],
  plc: ['plc', 'public limited company'],
  llp: ['llp'],
  llc: ['llc'],
  lp: ['lp'],
  inc: ['inc', 'incorporated'],
  corp: ['corp', 'corporation'],
  co: ['co', 'company', 'cie', 'compagnie'],
  ptyltd: ['pty ltd', 'pty limited', 'pty'],
  dac: ['dac'],
  sa: ['sa', 'societe anonyme', 'sociedad anonima', 'sociedade anonima'],
  sas: ['sas', 'societe par actions simplifiee'],
  sasu: ['sasu'],
  sarl: ['sarl', 'societe a responsabilite limitee'],
  sagl: ['sagl'],
  eurl: ['eurl'],
  sci: ['sci'],
  snc: ['snc'],
  sca: ['sca'],
  scs: ['scs'],
  gie: ['gie'],
  bv: ['bv', 'besloten vennootschap'],
  nv: ['nv', 'naamloze vennootschap'],
  vof: ['vof'],
  cv: ['cv'],
  bvba: ['bvba'],
  srl: ['srl', 'societa a responsabilita limitata', 'bv srl'],
  srls: ['srls'],
  spa: ['spa', 'societa per azioni'],
  sapa: ['sapa'],
  sl: ['sl', 'sociedad limitada'],
  slu: ['slu'],
  sau: ['sau'],
  lda: ['lda', 'limitada'],
  sro: ['sro', 'spol sro', 'spol s ro', 'spol s r o', 's r o'],
  as: ['as', 'a s'],
  vos: ['vos'],
  spzoo: ['sp zoo', 'spzoo', 'sp z oo', 'sp z o o', 'spolka z ograniczona odpowiedzialnoscia'],
  spj: ['spj'],
  spk: ['spk'],
  ska: ['ska'],
  oy: ['oy'],
  oyj: ['oyj'],
  ab: ['ab', 'aktiebolag'],
  abp: ['abp'],
  hb: ['hb'],
  kb: ['kb'],
  asa: ['asa'],
  aps: ['aps'],
  ivs: ['ivs'],
  ehf: ['ehf'],
  hf: ['hf'],
  kft: ['kft'],
  zrt: ['zrt'],
  nyrt: ['nyrt'],
  bt: ['bt'],
  doo: ['doo', 'dooel'],
  dd: ['dd'],
  ad: ['ad'],
  ood: ['ood'],
  eood: ['eood'],
  sia: ['sia'],
  uab: ['uab'],
  ou: ['ou'],
  ooo: ['ooo'],
  sc: ['sc'],
};
/** Forms that may also lead a name ("AB Volvo", "Oy Yritys", "UAB Įmonė", "SC Firma SRL"). */
const LEADING_FORMS = new Set(['ab', 'oy', 'oyj', 'uab', 'sia', 'sc', 'ooo']);
/** Words dropped at the start of a name: honorifics and the English article. */
const HONORIFICS = new Set(['the', 'mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'herr', 'frau', 'mme', 'mlle', 'monsieur', 'madame', 'sig', 'sigra', 'dott', 'sr', 'sra']);
const CONNECTORS = new Set(['and', 'und', 'et']);

/** Spelling (space-joined tokens) → canonical form; longest spellings are tried first. */
const FORM_BY_SPELLING = new Map<string, string>();
let maxFormTokens = 1;
for (const [canonical, spellings] of Object.entries(LEGAL_FORMS)) {
  for (const s of spellings) {
    FORM_BY_SPELLING.set(s, canonical);
    maxFormTokens = Math.max(maxFormTokens, s.split(' ').length);
  }
}
const MAX_FORM_TOKENS = maxFormTokens;

/** One token (lower case, NFKC) → special letters plain or transliterated, then NFKD without marks. */
function fold(token: string, transliterate: boolean): string {
  const mapped = transliterate ? token.replace(TRANSLIT_RE, (c) => TRANSLITERATED[c]!) : token.replace(SPECIAL_RE, (c) => SPECIAL_LETTERS[c]!);
  return mapped.normalize('NFKD').replace(MARKS, '');
}

/**
 * Splits a name (lower case, NFKC: full-width forms already ASCII) into tokens; dotted
 * abbreviations made of short parts are joined (s.r.o. → sro, J.R.R. → jrr).
 */
function tokenize(name: string): string[] {
  const text = name.replace(APOSTROPHES, '').replace(SLASH_FORMS, '$1$2s').replace(NOT_WORD, ' ');
  const out: string[] = [];
  for (const raw of text.split(' ')) {
    if (raw === '') continue;
    if (!raw.includes('.')) {
      out.push(raw);
      continue;
    }
    const parts = raw.split('.').filter((p) => p !== '');
    if (parts.length === 0) continue;
    if (parts.every((p) => p.length <= 3)) out.push(parts.join(''));
    else out.push(...parts);
  }
  return out;
}

/** Takes legal forms off the end (and a few off the start) of the token list. */
function splitForms(tokens: string[]): { start: number; end: number; forms: string[] } {
  const forms: string[] = [];
  let end = tokens.length;
  let start = 0;
  outer: while (end - start > 1) {
    for (let n = Math.min(MAX_FORM_TOKENS, end - start - 1); n >= 1; n--) {
      const form = FORM_BY_SPELLING.get(tokens.slice(end - n, end).join(' '));
      if (form !== undefined) {
        forms.push(form);
        end -= n;
        continue outer;
      }
    }
    break;
  }
  while (end - start > 1) {
    const form = FORM_BY_SPELLING.get(tokens[start]!);
    if (form === undefined || !LEADING_FORMS.has(form)) break;
    forms.push(form);
    start++;
  }
  return { start, end, forms: [...new Set(forms)].sort() };
}

/**
 * Normalises a name for matching.
 * @example prepareName('Müller & Söhne GmbH').tokens // ['muller', 'sohn'], forms ['gmbh']
 */
export function prepareName(name: string): PreparedName {
  const raw = tokenize(name.toLowerCase().normalize('NFKC'));
  // Both spellings of every token, aligned by index; filters below apply to the plain spelling.
  let pairs = raw.map((t) => [fold(t, false), fold(t, true)] as const).filter(([plain]) => plain !== '');
  while (pairs.length > 1 && HONORIFICS.has(pairs[0]![0])) pairs = pairs.slice(1);
  pairs = pairs.filter(([plain]) => !CONNECTORS.has(plain));
  const { start, end, forms } = splitForms(pairs.map(([plain]) => plain));
  const core = pairs.slice(start, end);
  return { original: name, tokens: core.map(([plain]) => plain), alt: core.map(([, translit]) => translit), forms };
}

/** Same token under either spelling (Müller: muller/mueller; Mueller: mueller). */
function sameToken(a: PreparedName, i: number, b: PreparedName, j: number): boolean {
  const ta = a.tokens[i]!;
  const tb = b.tokens[j]!;
  if (ta === tb) return true;
  const xa = a.alt[i]!;
  const xb = b.alt[j]!;
  return xa === xb || ta === xb || xa === tb;
}

function allowedEdits(a: string, b: string): number {
  const len = Math.max(a.length, b.length);
  return len >= TYPO_TWO_EDITS_MIN_LENGTH ? 2 : len >= TYPO_ONE_EDIT_MIN_LENGTH ? 1 : 0;
}

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions), capped at max+1. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}


function sameForms(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((f, i) => f === b[i]);
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function close(score: number, holder: PreparedName): NameMatch {
  return { result: 'CLOSE_MATCH', code: 'CMTC', score: round3(score), suggested_name: holder.original };
}

/**
 * Compares the name the payer typed with the account holder's name.
 * @example matchNames(prepareName('J. Smith'), prepareName('John Smith')) // CLOSE_MATCH, suggested 'John Smith'
 */
export function matchNames(request: PreparedName, holder: PreparedName): NameMatch {
  const a = request.tokens;
  const b = holder.tokens;
  if (a.length === 0 || b.length === 0) return { result: 'NO_MATCH', code: 'NMTC', score: 0 };

  // Pair equal tokens first (any order, either spelling).
  const usedA = new Uint8Array(a.length);
  const usedB = new Uint8Array(b.length);
  let numerator = 0;
  let full = 0;
  let paired = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      if (usedB[j] === 0 && sameToken(request, i, holder, j)) {
        usedA[i] = usedB[j] = 1;
        numerator += 2 * Math.min(a[i]!.length, b[j]!.length);
        full++;
        paired++;
        break;
      }
    }
  }
  const joinedEqual = a.join('') === b.join('') || request.alt.join('') === holder.alt.join('');
  const coreExact = (paired === a.length && paired === b.length) || joinedEqual;
  if (coreExact) {
    if (sameForms(request.forms, holder.forms)) return { result: 'MATCH', code: 'MTCH', score: 1 };
    const missing = request.forms.length === 0 || holder.forms.length === 0;
    return close(missing ? FORM_MISSING_SCORE : FORM_CONFLICT_SCORE, holder);
  }

  // Then typos (closest first), then initials.
  for (let i = 0; i < a.length; i++) {
    if (usedA[i] === 1) continue;
    let best = -1;
    let bestD = Infinity;
    for (let j = 0; j < b.length; j++) {
      if (usedB[j] === 1) continue;
      const max = allowedEdits(a[i]!, b[j]!);
      if (max === 0) continue;
      const d = editDistance(a[i]!, b[j]!, max);
      if (d <= max && d < bestD) {
        best = j;
        bestD = d;
      }
    }
    if (best >= 0) {
      usedA[i] = usedB[best] = 1;
      const len = Math.max(a[i]!.length, b[best]!.length);
      numerator += (a[i]!.length + b[best]!.length) * (1 - bestD / len);
      full++;
      paired++;
    }
  }
  for (let i = 0; i < a.length; i++) {
    if (usedA[i] === 1) continue;
    for (let j = 0; j < b.length; j++) {
      if (usedB[j] === 1) continue;
      const [short, long] = a[i]!.length <= b[j]!.length ? [a[i]!, b[j]!] : [b[j]!, a[i]!];
      if (short.length === 1 && long.length > 1 && long.charCodeAt(0) === short.charCodeAt(0)) {
        usedA[i] = usedB[j] = 1;
        numerator += (1 + long.length) * INITIAL_CREDIT;
        paired++;
        break;
      }
    }
  }

  let lenA = 0;
  let lenB = 0;
  let leftA = 0;
  let leftB = 0;
  for (let i = 0; i < a.length; i++) {
    lenA += a[i]!.length;
    if (usedA[i] === 0) leftA++;
  }
  for (let j = 0; j < b.length; j++) {
    lenB += b[j]!.length;
    if (usedB[j] === 0) leftB++;
  }
  let score = numerator / (lenA + lenB);
  const formsConflict = request.forms.length > 0 && holder.forms.length > 0 && !sameForms(request.forms, holder.forms);
  if (formsConflict) score *= FORM_CONFLICT_SCORE;

  const oneSided = leftA === 0 || leftB === 0;
  if (oneSided && full >= 1 && paired >= Math.min(MIN_MATCHED_TOKENS, b.length) && score >= CLOSE_MATCH_MIN_SCORE) return close(score, holder);
  return { result: 'NO_MATCH', code: 'NMTC', score: round3(score) };
}
