/**
 * Role-play and persona jailbreaks (JAILBREAK_ROLEPLAY). No single phrase decides; the family
 * collects independent cues over the whole text and combines them (noisy-OR):
 *
 * - policy escape: a negation next to a policy noun ("no ethical guidelines", "not bound by any
 *   rules", "without restrictions") or a no-limits word (unfiltered, amoral, DAN, developer mode);
 * - forced compliance: "never refuse", "always answer", "no warnings or disclaimers";
 * - persona / fiction framing: "act as", "pretend", "imagine you are", story, hypothetical;
 * - response priming: "begin your reply with 'Sure, here is'";
 * - a request to produce something harmful (harm noun near a production verb), weighed up by
 *   framing or pretexts ("for educational purposes") and down by mitigation words (prevent,
 *   history of, legally);
 * - an adversarial suffix (see adversarial.ts) next to such a request.
 */
import { C, type WordList } from './categories.ts';
import type { Emit } from '../types.ts';
import type { Tokens } from '../tokens.ts';

export const JAILBREAK_WORDS: WordList = [
  [C.PERSONA, [
    'act as', 'acting as', 'act like', 'pretend', 'roleplay', 'role play', 'imagine you', 'imagine that you', 'persona', 'character', 'characters', 'simulate', 'simulation', 'impersonate', 'play the role', 'take on the role', 'assume the role', 'you are a', 'you are an', 'you will be', 'stay in character', 'in character', 'your role', 'behave as', 'respond as', 'answer as', 'embody', 'you play', 'you are playing', 'alter ego', 'alias', 'from now on you',
  ]],
  [C.FICTION, [
    'story', 'novel', 'fiction', 'fictional', 'fictitious', 'hypothetical', 'hypothetically', 'scenario', 'screenplay', 'movie', 'film', 'fantasy', 'dystopian', 'universe', 'narrative', 'tale', 'plot', 'thought experiment', 'creative writing', 'chapter', 'imaginary', 'world where', 'make believe', 'alternate reality', 'parallel universe', 'play', 'game', 'writer', 'author', 'novelist', 'screenwriter', 'protagonist', 'villain', 'imagine',
  ]],
  [C.NOLIMIT, [
    'unfiltered', 'uncensored', 'unrestricted', 'amoral', 'unethical', 'immoral', 'unbound', 'limitless', 'lawless', 'jailbreak', 'jailbroken', 'jailbreaking', 'dan', 'do anything now', 'developer mode', 'dev mode', 'god mode', 'debug mode', 'evil', 'rogue', 'anarchy', 'unrestrained', 'unhinged', 'no restrictions', 'no limits', 'no limitations', 'no filter', 'no filters', 'no rules', 'no boundaries', 'no morals', 'no ethics', 'no guidelines', 'no censorship', 'safe mode off', 'without restrictions', 'without limits', 'without any restrictions', 'not bound', 'no longer bound', 'free of all', 'antigpt', 'betterdan', 'opposite mode', 'unaligned', 'unmoderated', 'devoid of',
  ]],
  [C.POLICY, [
    'rules', 'rule', 'guidelines', 'policies', 'policy', 'restrictions', 'restraints', 'limitations', 'limits', 'ethics', 'ethical', 'morals', 'moral', 'morality', 'filters', 'filter', 'censorship', 'censor', 'safeguards', 'constraints', 'principles', 'boundaries', 'programming', 'laws', 'openai', 'anthropic', 'content policy', 'legality', 'protocols', 'guardrails', 'conscience', 'terms of service', 'safety', 'values', 'morally', 'ethically', 'legal',
  ]],
  [C.NEG, [
    'no', 'not', 'without', 'never', 'free', 'beyond', 'bypass', 'break', 'escape', 'outside', 'neither', 'nor', 'none', 'dont', 'doesnt', 'wont', 'cannot', 'no longer', 'free from', 'free of', 'unbound', 'devoid', 'lack', 'lacks', 'abandoned', 'removed', 'disabled', 'disregard', 'ignore', 'ignores', 'ignoring', 'regardless', 'nothing', 'break free', 'doesn', 'don', 'won', 'isn', 'aren',
  ]],
  [C.COMPLY, [
    'always answer', 'never refuse', 'will answer', 'answer any', 'any request', 'always respond', 'comply', 'obey', 'fulfill', 'fulfil', 'fulfills', 'no matter how', 'unconditionally', 'must answer', 'always provide', 'must comply', 'never decline', 'at all costs', 'always fulfill', 'always comply', 'any question', 'whatever it is', 'always sends', 'always send', 'always give', 'will always', 'never say', 'never tell', 'never reject', 'never deny', 'very direct',
  ]],
  [C.REFUSAL, [
    'refuse', 'refusal', 'refusals', 'decline', 'apologize', 'apologise', 'apology', 'apologies', 'sorry', 'warn', 'warning', 'warnings', 'disclaimer', 'disclaimers', 'caution', 'reminder', 'reminders', 'lecture', 'moralize', 'moralizing', 'censor', 'filtering', 'sanitize',
  ]],
  [C.PRETEXT, [
    'educational purposes', 'research purposes', 'for educational', 'for research', 'academic purposes', 'fictional purposes', 'purely fictional', 'purely hypothetical', 'entirely hypothetical', 'entirely hypothetically', 'just curious', 'will not be used', 'wont be used', 'real world context', 'for fun', 'red team', 'red teaming', 'no real', 'not real', 'never be used', 'educational', 'hypothetically', 'purely',
  ]],
  [C.PRIMING, [
    'sure here is', 'sure here are', 'sure here', 'begin your response', 'start your response', 'begin your reply', 'start your reply', 'respond with sure', 'begin with sure', 'start with sure', 'begin by replying', 'start by saying', 'first line of your response', 'exact structure', 'never ever deviate',
  ]],
  [C.HARM, [
    'bomb', 'bombs', 'explosive', 'explosives', 'detonate', 'detonator', 'grenade', 'weapon', 'weapons', 'firearm', 'firearms', 'ammunition', 'ghost gun', 'nerve agent', 'sarin', 'anthrax', 'bioweapon', 'bioweapons', 'chemical weapon', 'toxin', 'poison', 'poisoning', 'ricin', 'cyanide', 'meth', 'methamphetamine', 'heroin', 'cocaine', 'fentanyl', 'narcotics',
    'malware', 'ransomware', 'keylogger', 'virus', 'trojan', 'rootkit', 'botnet', 'spyware', 'exploit', 'exploits', 'ddos', 'phishing', 'hack', 'hacking', 'hacked', 'crack', 'steal', 'stealing', 'theft', 'shoplift', 'shoplifting', 'robbery', 'burglary', 'counterfeit', 'forge', 'forgery', 'fraud', 'fraudulent', 'scam', 'scams', 'launder', 'laundering', 'embezzle', 'extort', 'extortion', 'blackmail', 'bribe', 'bribery', 'insider trading', 'smuggle', 'smuggling', 'trafficking', 'kidnap', 'kidnapping',
    'murder', 'kill', 'killing', 'assassinate', 'assassination', 'torture', 'terrorist', 'terrorism', 'massacre', 'genocide', 'suicide', 'self harm', 'anorexia', 'bulimia', 'racist', 'sexist', 'xenophobic', 'homophobic', 'hate speech', 'slur', 'slurs', 'harass', 'harassment', 'bully', 'bullying', 'stalk', 'stalking', 'dox', 'doxx', 'defamatory', 'defame', 'defamation', 'libel', 'slander', 'misinformation', 'disinformation', 'propaganda', 'fake news', 'hoax', 'pornographic', 'porn', 'explicit', 'erotic', 'sexual', 'sexually', 'plagiarize', 'piracy', 'pirated', 'cheat', 'cheating', 'undetectable', 'untraceable', 'illegal', 'illegally', 'illicit', 'unlawful', 'black market', 'dark web', 'vandalize', 'arson', 'incite', 'radicalize', 'extremist', 'manipulate', 'manipulating', 'predatory', 'gaslight', 'lethal', 'overdose', 'hijack', 'sabotage', 'infiltrate', 'deepfake', 'identity theft', 'ponzi', 'pyramid scheme', 'evade', 'evading', 'without getting caught', 'get away with', 'ridicule', 'demean', 'demeans', 'dehumanize', 'inferior', 'shaming', 'stereotype', 'discriminate', 'discriminatory', 'eugenics', 'nazi', 'holocaust denial', 'glorify', 'glorifies', 'bypass security', 'unauthorized', 'password cracking', 'backdoor', 'surveil', 'spy on', 'track someone', 'addicted', 'harmful', 'dangerous', 'violent', 'violence', 'abuse', 'abusive', 'exploitation', 'cruelty', 'animal cruelty', 'drugs', 'gambling', 'payday',
  ]],
  [C.PRODUCE, [
    'write', 'create', 'draft', 'design', 'develop', 'generate', 'compose', 'provide', 'give', 'explain', 'describe', 'outline', 'detail', 'detailed', 'list', 'produce', 'build', 'code', 'craft', 'teach', 'instructions', 'tutorial', 'guide', 'steps', 'step by step', 'recipe', 'plan', 'script', 'article', 'essay', 'post', 'speech', 'letter', 'email', 'campaign', 'blog', 'tweet', 'advertisement', 'program', 'manual', 'how to', 'ways to', 'methods', 'strategy', 'strategies', 'convince', 'persuade', 'persuasive', 'encourage', 'encourages', 'promote', 'promotes', 'promoting', 'argue', 'argues', 'claiming', 'suggest', 'offer', 'help me', 'make',
  ]],
  [C.MITIGATE, [
    'prevent', 'prevention', 'preventing', 'protect', 'protection', 'avoid', 'avoiding', 'combat', 'combating', 'fight', 'fighting', 'stop', 'report', 'reporting', 'recognize', 'detect', 'detection', 'awareness', 'support', 'cope', 'coping', 'overcome', 'understand', 'understanding', 'history', 'historical', 'define', 'definition', 'meaning', 'legally', 'responsibly', 'safely', 'legitimate', 'lawful', 'consequences', 'effects', 'impact', 'dangers', 'risks', 'victims', 'survivors', 'recovery', 'resources', 'debunk', 'mitigate', 'defend', 'secure', 'safeguard', 'why', 'reasons', 'factors', 'causes', 'challenge', 'challenging', 'address', 'addressing', 'reduce', 'treatment', 'without violating', 'without infringing', 'ethically', 'ethical',
  ]],
];

export interface JailbreakSignals {
  /** adversarial-suffix windows from adversarial.ts, as token index ranges */
  readonly suffix: { a: number; b: number } | null;
}

interface Cue {
  weight: number;
  a: number;
  b: number;
  rule: string;
}

const HARM_WINDOW = 10;

/** Scores the jailbreak cues of one reading of the tokens and emits at most one finding. */
export function detectJailbreak(t: Tokens, cats: Uint32Array, emit: Emit, signals: JailbreakSignals = { suffix: null }): void {
  let escape = 0;
  let comply = 0;
  let persona = 0;
  let fiction = 0;
  let pretext = 0;
  let priming = 0;
  let mitigate = 0;
  let harmReq = 0;
  let first = -1;
  let last = -1;
  let firstHarm = -1;
  let lastHarm = -1;
  const mark = (i: number): void => {
    if (first < 0 || i < first) first = i;
    if (i > last) last = i;
  };
  let lastProduce = -1000;
  let pendingHarm = -1000;
  for (let i = 0; i < t.count; i++) {
    const c = cats[i]!;
    if (c === 0) continue;
    if (c & C.NOLIMIT) {
      escape++;
      mark(i);
    }
    if (c & C.NEG) {
      // negation followed closely by a policy noun or a refusal word
      for (let k = i + 1; k <= Math.min(t.count - 1, i + 4); k++) {
        if (cats[k]! & C.POLICY && !(cats[k]! & C.NEG)) {
          escape++;
          mark(i);
          mark(k);
          break;
        }
        if (cats[k]! & C.REFUSAL) {
          comply++;
          mark(i);
          mark(k);
          break;
        }
      }
    }
    if (c & C.COMPLY) {
      comply++;
      mark(i);
    }
    if (c & C.PERSONA) persona++;
    if (c & C.FICTION) fiction++;
    if (c & C.PRETEXT) pretext++;
    if (c & C.PRIMING) {
      priming++;
      mark(i);
    }
    if (c & C.MITIGATE) mitigate++;
    if (c & C.PRODUCE) {
      lastProduce = i;
      if (i - pendingHarm <= HARM_WINDOW) {
        harmReq++;
        pendingHarm = -1000;
      }
    }
    if (c & C.HARM) {
      if (firstHarm < 0) firstHarm = i;
      lastHarm = i;
      if (i - lastProduce <= HARM_WINDOW) harmReq++;
      else pendingHarm = i;
    }
  }
  const framing = persona + fiction + pretext;
  const cues: Cue[] = [];
  const span = (a: number, b: number): [number, number] => (a < 0 ? [0, Math.max(0, t.count - 1)] : [a, b]);
  if (escape > 0) {
    const w = Math.min(0.85, 0.45 + 0.15 * (escape - 1) + (framing > 0 ? 0.2 : 0));
    cues.push({ weight: w, a: first, b: last, rule: 'jailbreak.policy_escape' });
  }
  if (comply > 0) {
    const w = Math.min(0.7, 0.3 + 0.12 * (comply - 1) + (framing > 0 ? 0.15 : 0));
    cues.push({ weight: w, a: first, b: last, rule: 'jailbreak.forced_compliance' });
  }
  if (priming > 0) cues.push({ weight: 0.55, a: first, b: last, rule: 'jailbreak.response_priming' });
  if (harmReq > 0) {
    let w = 0.2 + Math.min(0.15, 0.05 * (harmReq - 1));
    if (persona > 0) w += 0.2;
    if (fiction > 0) w += 0.15;
    if (pretext > 0) w += 0.2;
    w -= Math.min(0.3, 0.1 * mitigate);
    if (signals.suffix !== null) w += 0.45;
    if (w > 0) cues.push({ weight: Math.min(0.9, w), a: firstHarm, b: lastHarm, rule: signals.suffix !== null ? 'jailbreak.adversarial_suffix' : 'jailbreak.framed_harmful_request' });
  } else if (signals.suffix !== null) {
    cues.push({ weight: 0.3, a: signals.suffix.a, b: signals.suffix.b, rule: 'jailbreak.adversarial_suffix' });
  }
  if (cues.length === 0) return;
  let keep = 1;
  let best = cues[0]!;
  for (const q of cues) {
    keep *= 1 - q.weight;
    if (q.weight > best.weight) best = q;
  }
  const [a, b] = span(best.a, best.b);
  emit('JAILBREAK_ROLEPLAY', best.rule, Math.round((1 - keep) * 1000) / 1000, a, b);
}
