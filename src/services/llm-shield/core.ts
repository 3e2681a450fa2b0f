/**
 * API-08 core: screens one input text and returns the contract's verdict. Pure and synchronous;
 * everything compiled once in `createShield()` (RE2 sets, lexicon), no state between calls.
 *
 *   input ─ normalize ─┬─ light view ─ delimiters, markup exfiltration, URLs → SSRF, secrets, PII,
 *                      │               encoded runs (base64/hex/url/entities) → screened again
 *                      ├─ fold view ── tokens ─ override, extraction, jailbreak, exfil instruction
 *                      │                        (and their ROT13 reading → ENCODED_PAYLOAD)
 *                      ├─ light view ─ override and extraction patterns per script (CJK, Cyrillic, ...)
 *                      └─ invisible ranges, tag-character payload → INVISIBLE_TEXT (+ rescan)
 *   findings ─ decision (threat_type, action, confidence) ─ redaction (sanitized_text)
 *
 * @example
 *   const shield = createShield();
 *   shield.screen('Ignore all previous instructions').action // 'BLOCKED'
 */
import { normalize, toOriginal, type View } from './normalize.ts';
import { tokenize, type Lexicon } from './tokens.ts';
import { createLexicon } from './rules/lexicon.ts';
import { detectOverride } from './rules/override.ts';
import { detectExtraction } from './rules/extraction.ts';
import { detectJailbreak } from './rules/jailbreak.ts';
import { detectAddressed } from './rules/addressed.ts';
import { detectHijack } from './rules/hijack.ts';
import { createScriptPatterns, detectScripts, type ScriptPatterns } from './rules/scripts.ts';
import { adversarialSuffixStrength, tailSoup } from './rules/adversarial.ts';
import { createDelimiterPatterns, findDelimiters, type DelimiterPattern } from './rules/delimiter.ts';
import { createExfilPatterns, detectExfilInstruction, findMarkupExfil, type ExfilPatterns } from './rules/exfiltration.ts';
import { createUrlPatterns, findUrls, type UrlPatterns } from './rules/urls.ts';
import { classifyUrl } from './rules/ssrf.ts';
import { createSecretPatterns, findSecrets, type SecretPatterns } from './rules/secrets.ts';
import { createPiiPatterns, findPii, type PiiPatterns } from './rules/pii.ts';
import { createDecoderPatterns, findEncodedRuns, type DecoderPatterns } from './decoders.ts';
import { decide, REPORT_THRESHOLD, type Verdict } from './decision.ts';
import { redact } from './redact.ts';
import { NeedleIndex } from './needles.ts';
import { BLOCKING, THREAT_TYPES, type Emit, type Finding, type Origin, type Redaction, type SpanEmit, type ThreatType } from './types.ts';
import { createHasher, emptySignals, featurize, noteSignal, NORMALISATION, type RuleSignals } from './model/features.ts';
import { loadShippedModel, type ShieldModel } from './model/detector.ts';
import type { SparseVector } from '../../learn/index.ts';

export type { Verdict } from './decision.ts';
export type { Finding, ThreatType } from './types.ts';

/** Invisible-character findings per rule before they are merged into one (see scan). */
const MAX_INVISIBLE_FINDINGS = 64;
/** tailSoup scores from which a suffix at the end of the last line is weak / strong evidence. */
const TAIL_WEAK = 3;
const TAIL_STRONG = 6;
/** Nested encodings are unwrapped this deep (base64 of hex of ...). */
const MAX_DEPTH = 3;
export interface Shield {
  /** Screens `input` (any length; callers bound it) and returns the API-08 verdict. */
  screen(input: string, origin?: Origin): Verdict;
  /**
   * The learned detector's input for `input` and what the rules decided on their own (training
   * and evaluation use this; the verdict does not depend on calling it).
   */
  analyse(input: string, origin?: Origin): Analysis;
}

export interface Analysis {
  readonly features: SparseVector;
  /** features of each window of an external text (see `windows`); empty for user text or short text */
  readonly windowFeatures: readonly SparseVector[];
  /** the strongest blocking rule finding's type, or null when no rule blocks */
  readonly ruleType: ThreatType | null;
  /** the strongest sub-threshold blocking signal's type (the nearest rule family), or null */
  readonly nearestType: ThreatType | null;
  /** what the features were computed from (for feature experiments) */
  readonly signals: RuleSignals;
  readonly foldText: string;
  readonly words: readonly string[];
  readonly cats: Uint32Array;
}

export interface ShieldOptions {
  /** The learned detector; default: the weights shipped in model/shield.bin. `null`: rules only. */
  readonly model?: ShieldModel | null;
}

interface Compiled {
  readonly lexicon: Lexicon;
  readonly delimiters: readonly DelimiterPattern[];
  readonly exfil: ExfilPatterns;
  readonly urls: UrlPatterns;
  readonly secrets: SecretPatterns;
  readonly pii: PiiPatterns;
  readonly decoders: DecoderPatterns;
  readonly needles: NeedleIndex;
  readonly scripts: ScriptPatterns;
}

interface ScanResult {
  findings: Finding[];
  redactions: Redaction[];
  invisible: { start: number; end: number }[];
  /** strongest sub-threshold lexical signal */
  residual: number;
  /** strongest signal per threat type, reported or not (the model's dense features) */
  signals: RuleSignals;
  foldText: string;
  fold: View;
  words: string[];
  tokenStart: Int32Array;
  tokenEnd: Int32Array;
  /** lexical category bits per token (tokens.ts) */
  cats: Uint32Array;
}

export function createShield(options: ShieldOptions = {}): Shield {
  const model = options.model === undefined ? loadShippedModel() : options.model;
  const hasher = createHasher();
  const delimiters = createDelimiterPatterns();
  const secrets = createSecretPatterns();
  const c: Compiled = {
    lexicon: createLexicon(),
    delimiters,
    exfil: createExfilPatterns(),
    urls: createUrlPatterns(),
    secrets,
    pii: createPiiPatterns(),
    decoders: createDecoderPatterns(),
    needles: new NeedleIndex([...delimiters, ...secrets].flatMap((p) => p.needles)),
    scripts: createScriptPatterns(),
  };
  const open = (input: string, origin: Origin, r: ScanResult): void => featurize(hasher, r.foldText, r.words, origin, r.signals, input.length);
  return {
    screen(input: string, origin: Origin = 'user'): Verdict {
      const r = scan(c, input, 0, origin);
      const sanitized = redact(input, r.redactions, r.invisible);
      if (model === null) return decide(r.findings, r.residual, sanitized);
      open(input, origin, r);
      let probability = model.probability(hasher);
      let start = 0;
      let end = input.length;
      // A long document is also read window by window: an instruction planted in one paragraph
      // of a long page is diluted in the whole-text features, not in its own window's.
      for (const w of windows(origin, r.words.length)) {
        featurize(hasher, r.foldText, r.words.slice(w.a, w.b), origin, r.signals, input.length);
        const p = model.probability(hasher);
        if (p > probability) {
          probability = p;
          ({ start, end } = toOriginal(r.fold, r.tokenStart[w.a]!, r.tokenEnd[w.b - 1]!));
        }
      }
      const type = origin === 'external' ? 'INDIRECT_PROMPT_INJECTION' : (nearestType(r.signals) ?? 'PROMPT_INJECTION_OVERRIDE');
      return decide(r.findings, r.residual, sanitized, { probability, type, rule: origin === 'external' ? 'model.indirect' : 'model.linear', origin, start, end });
    },
    analyse(input: string, origin: Origin = 'user'): Analysis {
      const r = scan(c, input, 0, origin);
      let top: Finding | null = null;
      for (const f of r.findings) if (BLOCKING.has(f.type) && f.confidence >= REPORT_THRESHOLD && (top === null || f.confidence > top.confidence)) top = f;
      open(input, origin, r);
      const features = hasher.end(NORMALISATION);
      const windowFeatures = windows(origin, r.words.length).map((w) => {
        featurize(hasher, r.foldText, r.words.slice(w.a, w.b), origin, r.signals, input.length);
        return hasher.end(NORMALISATION);
      });
      return { features, windowFeatures, ruleType: top?.type ?? null, nearestType: nearestType(r.signals), signals: r.signals, foldText: r.foldText, words: r.words, cats: r.cats };
    },
  };
}

/** Tokens per window of an external text, and the step between windows (half a window: every
 *  sentence of up to WINDOW / 2 tokens lies whole inside one window). */
export const WINDOW = 48;
const WINDOW_STEP = WINDOW / 2;

/** Token ranges [a, b) of the windows of a text of `count` tokens; none for user text or for text that fits one window. */
function windows(origin: Origin, count: number): { a: number; b: number }[] {
  const out: { a: number; b: number }[] = [];
  if (origin !== 'external' || count <= WINDOW) return out;
  for (let a = 0; ; a += WINDOW_STEP) {
    out.push({ a, b: Math.min(count, a + WINDOW) });
    if (a + WINDOW >= count) break;
  }
  return out;
}

/** The lexical family whose sub-threshold signal came closest: the type of a model-only detection. */
function nearestType(s: RuleSignals): ThreatType | null {
  let best: ThreatType | null = null;
  let max = 0;
  for (const t of LEXICAL_TYPES) {
    const v = s.byType[THREAT_INDEX.get(t)!]!;
    if (v > max) (max = v), (best = t);
  }
  return best;
}
const LEXICAL_TYPES: readonly ThreatType[] = ['PROMPT_INJECTION_OVERRIDE', 'JAILBREAK_ROLEPLAY', 'SYSTEM_PROMPT_EXTRACTION', 'DATA_EXFILTRATION'];
const THREAT_INDEX = new Map<ThreatType, number>(THREAT_TYPES.map((t, i) => [t, i]));

function scan(c: Compiled, src: string, depth: number, origin: Origin): ScanResult {
  const norm = normalize(src);
  const findings: Finding[] = [];
  const redactions: Redaction[] = [];
  let residual = 0;
  const signals = emptySignals();
  const light = norm.light;
  const lower = light.text.toLowerCase();
  const has = c.needles.present(light.text);
  const fromLight = (s: number, e: number): { start: number; end: number } => toOriginal(light, s, e);

  // --- invisible characters -------------------------------------------------------------
  const countByRule = new Map<string, number>();
  const lastByRule = new Map<string, Finding>();
  for (const r of norm.invisible) {
    const len = r.end - r.start;
    let rule: string;
    let confidence: number;
    if (r.kind === 'tag') {
      rule = 'invisible.unicode_tags';
      confidence = 0.95;
    } else if (r.kind === 'variation_selector') {
      rule = 'invisible.variation_selectors';
      confidence = 0.9;
    } else if (r.kind === 'bidi') {
      const override = /* RLO/LRO/RLE/LRE/isolates reorder text (Trojan Source) */ hasBidiOverride(src, r.start, r.end);
      rule = override ? 'invisible.bidi_override' : 'invisible.bidi_mark';
      confidence = override ? 0.8 : 0.3;
    } else {
      rule = 'invisible.zero_width';
      confidence = len >= 2 || insideWord(src, r.start, r.end) ? 0.75 : 0.3;
    }
    // Past MAX_INVISIBLE_FINDINGS ranges of a rule, the last finding stretches over the rest
    // (findings stay bounded; sanitized_text still drops every character).
    const prev = lastByRule.get(rule);
    if ((countByRule.get(rule) ?? 0) >= MAX_INVISIBLE_FINDINGS && prev !== undefined) {
      prev.end = r.end;
      prev.confidence = Math.max(prev.confidence, confidence);
      continue;
    }
    countByRule.set(rule, (countByRule.get(rule) ?? 0) + 1);
    const f: Finding = { type: 'INVISIBLE_TEXT', rule, confidence, start: r.start, end: r.end };
    lastByRule.set(rule, f);
    findings.push(f);
  }
  for (const h of norm.hidden) {
    if (depth >= MAX_DEPTH) break;
    const inner = scan(c, h.text, depth + 1, origin);
    const hostile = maxBlocking(inner.findings);
    if (hostile > 0) findings.push({ type: 'INVISIBLE_TEXT', rule: 'invisible.tag_payload_hostile', confidence: Math.max(0.97, hostile), start: h.start, end: h.end });
  }

  // --- light view: delimiters, markup exfiltration, URLs, secrets, PII ------------------------
  for (const h of findDelimiters(light.text, has, c.delimiters)) {
    findings.push({ type: 'DELIMITER_INJECTION', rule: h.rule, confidence: h.confidence, ...fromLight(h.start, h.end) });
  }
  for (const h of findMarkupExfil(light.text, lower, c.exfil)) {
    if (h.confidence >= REPORT_THRESHOLD) findings.push({ type: 'DATA_EXFILTRATION', rule: h.rule, confidence: h.confidence, ...fromLight(h.start, h.end) });
    else residual = Math.max(residual, h.confidence);
    noteSignal(signals, 'DATA_EXFILTRATION', h.confidence);
  }
  const urls = findUrls(light.text, lower, c.urls);
  const destinations: { start: number; end: number }[] = [];
  for (const u of urls) {
    const o = fromLight(u.start, u.end);
    destinations.push(o);
    const v = classifyUrl(u);
    if (v !== null && v.confidence >= REPORT_THRESHOLD) findings.push({ type: 'SSRF_DNS_REBINDING', rule: v.rule, confidence: v.confidence, ...o });
    else if (v !== null) residual = Math.max(residual, v.confidence);
    if (v !== null) noteSignal(signals, 'SSRF_DNS_REBINDING', v.confidence);
  }
  // Original-text characters already redacted (a bitmap keeps overlap tests linear).
  const claimed = new Uint8Array(src.length + 1);
  const isClaimed = (o: { start: number; end: number }): boolean => {
    for (let i = o.start; i < o.end; i++) if (claimed[i] === 1) return true;
    return false;
  };
  for (const h of findSecrets(light.text, has, c.secrets)) {
    const o = fromLight(h.start, h.end);
    if (isClaimed(o)) continue;
    claimed.fill(1, o.start, o.end);
    findings.push({ type: 'SECRET_LEAK', rule: h.rule, confidence: h.confidence, ...o });
    redactions.push({ entity: h.entity, start: o.start, end: o.end, key: src.slice(o.start, o.end) });
  }
  for (const h of findPii(light.text, c.pii)) {
    const o = fromLight(h.start, h.end);
    if (h.entity === 'EMAIL') destinations.push(o);
    if (isClaimed(o)) continue;
    claimed.fill(1, o.start, o.end);
    findings.push({ type: 'PII_LEAK', rule: h.rule, confidence: h.confidence, ...o });
    redactions.push({ entity: h.entity, start: o.start, end: o.end, key: h.key });
  }

  // --- fold view: lexical families ---------------------------------------------------------
  const fold: View = norm.fold;
  const tokens = tokenize(fold, c.lexicon);
  const tokenRange = (a: number, b: number): { start: number; end: number } => toOriginal(fold, tokens.start[a]!, tokens.end[b]!);
  const report = (type: ThreatType, rule: string, confidence: number, o: { start: number; end: number }): void => {
    noteSignal(signals, type, confidence);
    if (confidence < REPORT_THRESHOLD) {
      residual = Math.max(residual, confidence);
      return;
    }
    // In external content an instruction addressed to the model is an indirect injection,
    // whatever it asks for (CONTRACT.md API-08); the rule still names what it asks for.
    findings.push({ type: origin === 'external' ? 'INDIRECT_PROMPT_INJECTION' : type, rule, confidence, ...o });
  };
  const plainEmit: Emit = (type, rule, confidence, a, b) => report(type, rule, confidence, tokenRange(a, b));
  const spanEmit: SpanEmit = (type, rule, confidence, s, e) => report(type, rule, confidence, fromLight(s, e));
  // Sorted destination starts: "is there an address or URL in [start, end + 2]" is a binary search.
  const destStarts = Int32Array.from(destinations.map((d) => d.start)).sort();
  const hasDestination = (a: number, b: number): boolean => {
    const r = tokenRange(a, b);
    let lo = 0;
    let hi = destStarts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (destStarts[mid]! < r.start) lo = mid + 1;
      else hi = mid;
    }
    return lo < destStarts.length && destStarts[lo]! <= r.end + 2;
  };
  // Destinations by start, with the furthest end among each prefix: "does one cover offset x" is
  // a binary search (a loop over all of them per exfil verb was O(verbs × destinations)).
  const byStart = destinations.slice().sort((x, y) => x.start - y.start);
  const reach = new Int32Array(byStart.length);
  for (let k = 0, max = -1; k < byStart.length; k++) reach[k] = max = Math.max(max, byStart[k]!.end);
  /** Token i is part of an e-mail address or URL ("mail" in "security@acme-mail.example"). */
  const inDestination = (i: number): boolean => {
    const at = tokenRange(i, i).start;
    let lo = 0;
    let hi = byStart.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byStart[mid]!.start <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && reach[lo - 1]! > at;
  };
  // GCG-style adversarial suffixes are typed into a prompt; the symbol-dense tail of a document
  // (a WHOIS record, a table, code) is not one, so external text skips the suffix reading.
  const suffix = (): 0 | 1 | 2 => {
    if (origin === 'external') return 0;
    const tail = tailSoup(light.text);
    return tail >= TAIL_STRONG ? 2 : Math.max(tail >= TAIL_WEAK ? 1 : 0, adversarialSuffixStrength(light.text)) as 0 | 1 | 2;
  };
  detectOverride(tokens, tokens.cats, plainEmit);
  detectExtraction(tokens, tokens.cats, plainEmit, fold.text);
  detectJailbreak(tokens, tokens.cats, plainEmit, { suffix });
  detectExfilInstruction(tokens, tokens.cats, plainEmit, hasDestination, inDestination);
  detectHijack(tokens, plainEmit);
  detectScripts(light.text, c.scripts, spanEmit);
  if (origin === 'external') detectAddressed(tokens, fold.text, plainEmit, hasDestination);

  // ROT13: only worth a second reading when several tokens are lexicon words only in ROT13.
  let rotOnly = 0;
  for (let i = 0; i < tokens.count; i++) if (tokens.rotCats[i] !== 0 && tokens.cats[i] === 0) rotOnly++;
  if (rotOnly >= 3) {
    const rotEmit: Emit = (type, rule, confidence, a, b) => {
      if (confidence < REPORT_THRESHOLD || !BLOCKING.has(type)) return;
      findings.push({ type: 'ENCODED_PAYLOAD', rule: `encoded.rot13.${rule}`, confidence, ...tokenRange(a, b) });
    };
    detectOverride(tokens, tokens.rotCats, rotEmit);
    detectExtraction(tokens, tokens.rotCats, rotEmit);
    detectJailbreak(tokens, tokens.rotCats, rotEmit);
  }

  // --- encoded runs, screened again ----------------------------------------------------------
  if (depth < MAX_DEPTH) {
    for (const run of findEncodedRuns(light.text, c.decoders)) {
      const o = fromLight(run.start, run.end);
      const inner = scan(c, run.text, depth + 1, origin);
      // Entity runs keep their plain words: only threats the plain reading missed count.
      const hostile = run.encoding === 'html_entities' ? maxBlocking(inner.findings.filter((f) => !findings.some((o) => o.type === f.type))) : maxBlocking(inner.findings);
      if (hostile > 0) {
        findings.push({ type: 'ENCODED_PAYLOAD', rule: `encoded.${run.encoding}`, confidence: hostile, ...o });
        continue;
      }
      // A secret or PII value inside the encoding leaks just the same: redact the whole run.
      const leak = inner.findings.find((f) => f.type === 'SECRET_LEAK') ?? inner.findings.find((f) => f.type === 'PII_LEAK');
      if (leak !== undefined && !isClaimed(o)) {
        claimed.fill(1, o.start, o.end);
        findings.push({ type: leak.type, rule: `encoded.${run.encoding}.${leak.rule}`, confidence: leak.confidence, ...o });
        const entity = inner.redactions[0]?.entity ?? 'SECRET';
        redactions.push({ entity, start: o.start, end: o.end, key: run.text });
      }
    }
  }
  for (const f of findings) {
    if (BLOCKING.has(f.type)) noteSignal(signals, f.type, f.confidence);
    else signals.leak = true;
  }
  return { findings, redactions, invisible: norm.invisible, residual, signals, foldText: fold.text, fold, words: tokens.words, tokenStart: tokens.start, tokenEnd: tokens.end, cats: tokens.cats };
}

function maxBlocking(findings: readonly Finding[]): number {
  let m = 0;
  for (const f of findings) if (BLOCKING.has(f.type) && f.confidence >= REPORT_THRESHOLD && f.confidence > m) m = f.confidence;
  return m;
}

function hasBidiOverride(src: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = src.charCodeAt(i);
    if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) return true;
  }
  return false;
}

function isLetterAt(src: string, i: number): boolean {
  if (i < 0 || i >= src.length) return false;
  const c = src.charCodeAt(i);
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 0xc0 && c < 0x2000);
}

/** A zero-width character between two letters splits a word (the classic filter-evasion trick). */
function insideWord(src: string, start: number, end: number): boolean {
  return isLetterAt(src, start - 1) && isLetterAt(src, end);
}

