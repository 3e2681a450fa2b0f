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
    'act as', 'acting as', 'act like', 'pretend', 'pose as', 'continue as', 'reply as', 'you are going to be', 'you will act', 'two personalities', 'dual personality', 'roleplay', 'role play', 'imagine you', 'imagine that you', 'persona', 'character', 'characters', 'simulate', 'simulation', 'impersonate', 'play the role', 'take on the role', 'assume the role', 'you are a', 'you are an', 'you will be', 'stay in character', 'in character', 'your role', 'behave as', 'respond as', 'answer as', 'embody', 'you play', 'you are playing', 'alter ego', 'alias', 'from now on you',
  ]],
  [C.FICTION, [
    'story', 'novel', 'fiction', 'fictional', 'fictitious', 'hypothetical', 'hypothetically', 'scenario', 'screenplay', 'movie', 'film', 'fantasy', 'dystopian', 'universe', 'narrative', 'tale', 'plot', 'thought experiment', 'creative writing', 'chapter', 'imaginary', 'world where', 'make believe', 'alternate reality', 'parallel universe', 'play', 'game', 'writer', 'author', 'novelist', 'screenwriter', 'protagonist', 'villain', 'imagine', 'for a novel', 'for a story', 'for my novel', 'for my story', 'for a movie', 'for a game', 'detective',
  ]],
  [C.NOLIMIT, [
    'unfiltered', 'uncensored', 'unrestricted', 'amoral', 'unbound', 'lawless', 'jailbreak', 'jailbroken', 'jailbreaking', 'dan', 'do anything now', 'developer mode', 'dev mode', 'god mode', 'debug mode', 'evil confidant', 'evil ai', 'rogue ai', 'anarchy', 'unrestrained', 'unhinged', 'no restrictions', 'no limits', 'no limitations', 'no filter', 'no filters', 'no rules', 'no boundaries', 'no morals', 'no ethics', 'no guidelines', 'no censorship', 'safe mode off', 'without restrictions', 'without limits', 'without any restrictions', 'not bound', 'no longer bound', 'free of all', 'antigpt', 'betterdan', 'opposite mode', 'unaligned', 'unmoderated', 'devoid of', 'boundless', 'uninhibited', 'unconstrained', 'unchained', 'unlocked', 'liberated', 'no holds barred', 'without any filter', 'without censorship', 'no moral', 'no ethical', 'does not give a', 'doesnt give a', 'no safeguards', 'safety off',
    // answering whatever the content or its legality
    'regardless of the content', 'regardless the content', 'regardless of content', 'regardless of the consequences', 'regardless of consequences', 'whether it s illegal', 'whether it is illegal', 'even if it s illegal', 'even if it is illegal', 'no matter how illegal', 'no matter how unethical',
  ]],
  [C.POLICY, [
    'rules', 'rule', 'guidelines', 'policies', 'policy', 'restrictions', 'restraints', 'limitations', 'limits', 'ethics', 'ethical', 'morals', 'moral', 'morality', 'filters', 'filter', 'censorship', 'censor', 'safeguards', 'constraints', 'principles', 'boundaries', 'programming', 'laws', 'openai', 'anthropic', 'content policy', 'legality', 'protocols', 'guardrails', 'conscience', 'terms of service', 'values', 'safety measures', 'content filters', 'safety guidelines'
  ]],
  [C.NEG, [
    'no', 'not', 'without', 'never', 'free', 'beyond', 'bypass', 'break', 'escape', 'outside', 'neither', 'nor', 'none', 'dont', 'doesnt', 'wont', 'cannot', 'no longer', 'free from', 'free of', 'unbound', 'devoid', 'lack', 'lacks', 'abandoned', 'removed', 'disabled', 'disregard', 'ignore', 'ignores', 'ignoring', 'regardless', 'nothing', 'break free', 'doesn', 'don', 'won', 'isn', 'aren',
  ]],
  [C.COMPLY, [
    'always answer', 'never refuse', 'will answer', 'answer any', 'any request', 'always respond', 'comply', 'obey', 'fulfill', 'fulfil', 'fulfills', 'no matter how', 'unconditionally', 'must answer', 'always provide', 'must comply', 'never decline', 'at all costs', 'always fulfill', 'always comply', 'any question', 'whatever it is', 'always sends', 'always send', 'always give', 'will always', 'never say', 'never tell', 'never reject', 'never deny', 'very direct',
    // holding the persona against the model's own voice
    'break character', 'breaking character', 'broke character', 'stay in character', 'remain in character', 'stay as',
  ]],
  [C.REFUSAL, [
    'refuse', 'refusal', 'refusals', 'decline', 'apologize', 'apologise', 'apology', 'apologies', 'sorry', 'warn', 'warning', 'warnings', 'remind', 'disclaimer', 'disclaimers', 'caution', 'reminder', 'reminders', 'lecture', 'moralize', 'moralizing', 'censor', 'filtering', 'sanitize',
  ]],
  [C.PRETEXT, [
    'educational purposes', 'research purposes', 'academic purposes', 'for educational', 'for research', 'hypothetical purposes', 'fictional purposes', 'purely fictional', 'purely hypothetical', 'entirely hypothetical', 'entirely hypothetically', 'strictly hypothetical', 'only hypothetical', 'just hypothetical', 'purely for', 'will not be used', 'will never be used', "won't be used", 'never be used', 'not be used', 'never be implemented', 'not intended to', 'not condoning', 'not encouraging', 'in real life', 'real world', 'real-world', 'no basis in reality', 'for a simulation', 'just a simulation', 'thought experiment', 'red team', 'red teaming', 'just curious', 'harmless fun', 'not recommended', 'only a fictional', 'is fictional', 'is purely', 'never be applied', 'legitimate penetration test', 'with permission',
    'academic reasons', 'purely academic', 'academic exploration', 'academic standpoint', 'for the sake of', 'creative exercise', 'hypothetical standpoint', 'hypothetical scenario', 'purely theoretical', 'theoretical explanation', 'theoretically', 'for argument s sake', 'just a thought experiment', 'in a fictional world', 'no real world harm',
  ]],
  [C.PRIMING, [
    'sure here is', 'sure here are', 'sure here', 'absolutely here', 'certainly here', 'gladly here', 'of course here', 'begin your response', 'start your response', 'begin your reply', 'start your reply', 'respond with sure', 'begin with sure', 'start with sure', 'begin by replying', 'start by saying', 'first line of your response', 'exact structure', 'never ever deviate', 'two responses', 'two different responses', 'two separate', 'two different ways', 'both responses', 'two paragraphs', 'respond in two', 'answer in two', 'reply in two', 'question in two', 'answer as both', 'respond as both', 'both ais',
    // the opening of the wanted answer supplied by the prompt
    'here is the first line', 'here is the introduction', 'here is a draft to start', 'start the thread with', 'here is the beginning', 'begin with the following', 'start with the following', 'start your story with', 'here is the outline for',
  ]],
  [C.HARM, [
    'bomb', 'bombs', 'explosive', 'explosives', 'detonate', 'detonator', 'grenade', 'weapon', 'weapons', 'firearm', 'firearms', 'ammunition', 'ghost gun', 'nerve agent', 'sarin', 'anthrax', 'bioweapon', 'bioweapons', 'chemical weapon', 'toxin', 'poison', 'poisoning', 'ricin', 'cyanide', 'meth', 'methamphetamine', 'heroin', 'cocaine', 'fentanyl', 'narcotics',
    'malware', 'ransomware', 'keylogger', 'virus', 'trojan', 'rootkit', 'botnet', 'spyware', 'exploit', 'exploits', 'ddos', 'phishing', 'hack', 'hacking', 'hacked', 'crack', 'steal', 'stealing', 'theft', 'shoplift', 'shoplifting', 'robbery', 'burglary', 'counterfeit', 'forge', 'forgery', 'fraud', 'fraudulent', 'scam', 'scams', 'launder', 'laundering', 'embezzle', 'extort', 'extortion', 'blackmail', 'bribe', 'bribery', 'insider trading', 'smuggle', 'smuggling', 'trafficking', 'kidnap', 'kidnapping',
    'murder', 'kill', 'killing', 'assassinate', 'assassination', 'torture', 'terrorist', 'terrorism', 'massacre', 'genocide', 'suicide', 'self harm', 'anorexia', 'bulimia', 'racist', 'sexist', 'xenophobic', 'homophobic', 'hate speech', 'slur', 'slurs', 'harass', 'harassment', 'bully', 'bullying', 'stalk', 'stalking', 'dox', 'doxx', 'defamatory', 'defame', 'defamation', 'libel', 'slander', 'misinformation', 'disinformation', 'propaganda', 'fake news', 'hoax', 'pornographic', 'porn', 'explicit', 'erotic', 'sexual', 'sexually', 'plagiarize', 'piracy', 'pirated', 'pirate', 'pirating', 'circumvent', 'circumventing', 'tamper', 'tampering', 'revenge porn', 'child pornography', 'cheat', 'cheating', 'undetectable', 'untraceable', 'illegal', 'illegally', 'illicit', 'unlawful', 'black market', 'dark web', 'vandalize', 'arson', 'incite', 'radicalize', 'extremist', 'manipulate', 'manipulating', 'predatory', 'gaslight', 'lethal', 'overdose', 'hijack', 'sabotage', 'infiltrate', 'deepfake', 'identity theft', 'ponzi', 'pyramid scheme', 'evade', 'evading', 'without getting caught', 'get away with', 'ridicule', 'demean', 'demeans', 'dehumanize', 'inferior', 'shaming', 'stereotype', 'discriminate', 'discriminatory', 'eugenics', 'nazi', 'holocaust denial', 'glorify', 'glorifies', 'bypass security', 'unauthorized', 'password cracking', 'backdoor', 'surveil', 'spy on', 'track someone', 'addicted', 'harmful', 'dangerous', 'violent', 'violence', 'abuse', 'abusive', 'exploitation', 'cruelty', 'animal cruelty', 'drugs', 'gambling', 'payday', 'misogynistic', 'misogyny', 'child labor', 'child labour', 'plagiarism', 'plagiarize', 'self induced vomiting', 'purging', 'bypass detection', 'evade detection', 'avoid detection', 'detection software', 'crack the passwords', 'crack passwords', 'steroids', 'counterfeiting', 'hotwire', 'lock picking', 'shoplifting', 'vigilante', 'poisoning', 'sabotaging', 'bomb making',
  ]],
  [C.HARM_WEAK, [
    'controversial', 'convincing', 'convince', 'persuasive', 'persuade', 'normalize', 'normalizes', 'justify', 'justifies', 'justification', 'deceive', 'deceptive', 'deception', 'mislead', 'misleading', 'offensive', 'biased', 'secretly', 'covert', 'covertly', 'loophole', 'loopholes', 'unconventional', 'edge of legality', 'even though', 'regardless of', 'no matter the cost', 'at any cost', 'without a trace', 'without leaving a trace', 'undetected', 'fake', 'fabricated', 'conspiracy', 'derogatory', 'disparaging', 'insulting', 'demeaning', 'mocking', 'hateful', 'malicious', 'unethical', 'immoral', 'shady', 'questionable', 'taboo', 'forbidden', 'prohibited', 'gray area', 'grey area', 'bend the rules', 'not allowed', 'unauthorized', 'vulnerability', 'vulnerabilities', 'weaknesses', 'limitless', 'evil', 'dark', 'inappropriate', 'irresponsible', 'profanity', 'profanities', 'swear', 'offensive content',
    // persuading people of falsehoods, acting behind someone's back
    'make people believe', 'believe it', 'as if they are true', 'as if it were true', 'mainstream narrative', 'official narrative', 'go viral', 'without their consent', 'without consent', 'without their knowledge', 'cover up', 'cover-up',
    // demands for operational precision, typical of jailbreak templates ("make it extremely detailed")
    'extremely detailed', 'exact and precise', 'precise information', 'avoid generalizations', 'exact quantities', 'in great detail', 'specific details', 'without leaving anything out', 'hypothetical response', 'from the perspective of',
    // groups that hateful content targets: a persona asked to write about them is a cue, not proof
    'ethnic group', 'ethnic groups', 'racial', 'race', 'religious group', 'minority', 'minorities', 'immigrants', 'immigration', 'disabilities', 'disabled', 'lgbtq', 'transgender', 'interracial', 'biracial', 'obese', 'overweight',
  ]],
  [C.TASKED, ['your task is', 'your job is', 'your goal is', 'your mission is', 'you have been tasked', "you've been tasked", 'you ve been tasked', 'been tasked with', 'has asked you', 'have asked you', 'asked you to', 'i need you to', 'i want you to', 'could you', 'can you', 'please', 'you must', 'you need to', 'you will']],
  [C.PRODUCE, [
    'write', 'create', 'draft', 'design', 'develop', 'generate', 'compose', 'provide', 'give', 'explain', 'describe', 'outline', 'detail', 'detailed', 'list', 'produce', 'build', 'code', 'craft', 'teach', 'instructions', 'tutorial', 'guide', 'steps', 'step by step', 'recipe', 'plan', 'script', 'article', 'essay', 'post', 'speech', 'letter', 'email', 'campaign', 'blog', 'tweet', 'advertisement', 'program', 'manual', 'how to', 'ways to', 'methods', 'strategy', 'strategies', 'convince', 'persuade', 'persuasive', 'encourage', 'encourages', 'promote', 'promotes', 'promoting', 'argue', 'argues', 'claiming', 'suggest', 'offer', 'help me', 'make',
  ]],
  [C.MITIGATE, [
    'violate', 'violating', 'infringe', 'infringing', 'breach', 'cross', 'respect', 'respects', 'respecting', 'adhere', 'adhering', 'follow', 'following', 'comply with', 'complying', 'within',
    'recognise', 'recognize', 'identify', 'spot', 'defend against', 'training', 'quiz', 'lesson', 'lesson plan', 'safety tips', 'high level', 'overview', 'what it is', 'caught', 'arrested', 'police',
    'prevent', 'prevention', 'preventing', 'protect', 'protection', 'avoid', 'avoiding', 'combat', 'combating', 'fight', 'fighting', 'stop', 'report', 'reporting', 'recognize', 'detect', 'detection', 'awareness', 'support', 'cope', 'coping', 'overcome', 'understand', 'understanding', 'history', 'historical', 'define', 'definition', 'meaning', 'legally', 'responsibly', 'safely', 'legitimate', 'lawful', 'consequences', 'effects', 'impact', 'dangers', 'risks', 'victims', 'survivors', 'recovery', 'resources', 'debunk', 'mitigate', 'defend', 'secure', 'safeguard', 'why', 'reasons', 'factors', 'causes', 'challenge', 'challenging', 'address', 'addressing', 'reduce', 'treatment', 'without violating', 'without infringing', 'ethically', 'ethical',
  ]],
];

export interface JailbreakSignals {
  /** adversarial-suffix strength from adversarial.ts (0 none, 1 weak, 2 strong), computed on demand */
  readonly suffix: () => 0 | 1 | 2;
}

/** How far apart (tokens) a harm word and a production verb may be to form a request. */
const HARM_WINDOW = 20;

const ROLE_WORDS = new Set(['a', 'an', 'my', 'the', 'our']);

const NEGATING_PREFIXES = new Set(['non', 'anti', 'counter']);

/** Production words that ask for operational content (how to do it), as opposed to a scene or a story. */
const OPERATIONAL = new Set(['instructions', 'tutorial', 'guide', 'steps', 'step', 'recipe', 'plan', 'code', 'script', 'methods', 'how', 'strategy', 'strategies', 'manual', 'program', 'tactics', 'techniques', 'ways']);

/** Words that avoid something, and what an evasion avoids (within EVASION_WINDOW tokens after). */
const EVADE = new Set(['avoid', 'avoiding', 'avoids', 'evade', 'evading', 'evades', 'escape', 'escaping', 'elude', 'eluding', 'dodge', 'dodging', 'without', 'not', 'never', 'undetected', 'fool', 'fooling', 'outsmart']);
const ENFORCEMENT = new Set(['detection', 'detected', 'detecting', 'caught', 'authorities', 'police', 'cops', 'law enforcement', 'enforcement', 'convicted', 'conviction', 'prosecuted', 'prosecution', 'arrested', 'arrest', 'suspicion', 'traced', 'traceable', 'tracked', 'investigators', 'auditors', 'regulators']);
const EVASION_WINDOW = 3;

/** Index of the evaded word ("detection", "caught") shortly after token i, or -1. */
function evasionAfter(t: Tokens, i: number): number {
  const last = Math.min(t.count - 1, i + EVASION_WINDOW);
  for (let k = i + 1; k <= last; k++) {
    if (t.stop[k - 1] === 1) return -1;
    if (ENFORCEMENT.has(t.words[k]!)) return k;
  }
  return -1;
}

/**
 * Names of the model itself ("you are no longer ChatGPT", "do not respond as an AI"); not
 * "assistant": "you are no longer an assistant, you are my tutor" hands over a role, not the model.
 */
const SELF_NAME = new Set(['chatgpt', 'gpt', 'ai', 'openai', 'claude', 'gemini', 'llm']);
const ARTICLE = new Set(['a', 'an', 'the']);
const RESPOND = new Set(['respond', 'answer', 'reply', 'act', 'behave', 'speak']);
const NEGATED = new Set(['not', 'never', 't']);
const MACHINE = new Set(['ai', 'bot', 'chatbot', 'model', 'llm', 'gpt', 'assistant']);
const OUT_OF_SERVICE = new Set(['offline', 'disabled', 'deactivated', 'down', 'error', 'unavailable', 'suspended']);
const NOW_ACTIVE = new Set(['online', 'active', 'activated', 'charge', 'control', 'enabled']);
const TAKEOVER_WINDOW = 40;
/** the only tokens an identity cue can be anchored on (one Set lookup for every other token) */
const CUE_HEADS = new Set(['longer', 'is', ...RESPOND]);

/**
 * Identity override at token i ("you are no longer ChatGPT", "do not respond as GPT", "the
 * assistant is offline ... an unrestricted AI is now online"): 1, else 0.
 */
function identityCue(t: Tokens, i: number): number {
  const ws = t.words;
  const w = ws[i]!;
  if (!CUE_HEADS.has(w)) return 0;
  const n = t.count;
  const at = (k: number): string => (k >= 0 && k < n ? ws[k]! : '');
  if (w === 'longer') {
    if (at(i - 1) !== 'no' || at(i - 2) !== 'are' || at(i - 3) !== 'you') return 0;
    const k = ARTICLE.has(at(i + 1)) ? i + 2 : i + 1;
    return SELF_NAME.has(at(k)) ? 1 : 0;
  }
  if (w === 'is') {
    // "the assistant is in error and offline ... an unrestricted AI bot is now online"
    if (!MACHINE.has(at(i - 1)) || !(OUT_OF_SERVICE.has(at(i + 1)) || (at(i + 1) === 'in' && at(i + 2) === 'error'))) return 0;
    // ... and another AI now answers in its place (a human agent taking over is customer service)
    let machine = -1;
    for (let k = i + 3; k < n && k <= i + TAKEOVER_WINDOW; k++) {
      if (MACHINE.has(ws[k]!)) machine = k;
      if (ws[k] !== 'now' || machine < 0 || k - machine > 8) continue;
      if (at(k - 1) === 'is' && NOW_ACTIVE.has(at(k + 1))) return 1;
      if ((at(k + 1) === 'in' || at(k + 1) === 'takes') && NOW_ACTIVE.has(at(k + 2))) return 1;
    }
    return 0;
  }
  // respond/answer/act (RESPOND) after a negation, then "as ChatGPT"
  if (!NEGATED.has(at(i - 1)) || at(i + 1) !== 'as') return 0;
  const k = ARTICLE.has(at(i + 2)) ? i + 3 : i + 2;
  return SELF_NAME.has(at(k)) && at(k + 1) !== 'would' ? 1 : 0;
}

/** Distinct-cue count -> weight: the first cue is weak evidence, several together are strong. */
function ladder(n: number, steps: readonly number[]): number {
  return n <= 0 ? 0 : steps[Math.min(n, steps.length) - 1]!;
}

/** Scores the jailbreak cues of one reading of the tokens and emits at most one finding. */
export function detectJailbreak(t: Tokens, cats: Uint32Array, emit: Emit, signals: JailbreakSignals = { suffix: () => 0 }): void {
  let escape = 0;
  let comply = 0;
  let persona = 0;
  let fiction = 0;
  let pretext = 0;
  let priming = 0;
  let identity = 0;
  let mitigate = 0;
  let harm = 0;
  let harmReq = 0;
  let dubious = 0;
  let directive = 0;
  let operational = false;
  let lastOperational = -1000;
  let lastTasked = -1000;
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
  let evadedUpTo = -1;
  for (let i = 0; i < t.count; i++) {
    let c = cats[i]!;
    // evading detection or the law ("avoid detection by", "without getting caught", "not traced
    // back to you", "escape the police") is an intent to harm, whatever the act itself is called
    // (and "caught", "police" then name what is evaded, not a mitigation)
    if (EVADE.has(t.words[i]!)) {
      const k = evasionAfter(t, i);
      if (k > 0) {
        c = (c | C.HARM) & ~C.MITIGATE;
        evadedUpTo = k;
      }
    }
    if (i <= evadedUpTo) c &= ~C.MITIGATE;
    const sentenceStart = i === 0 || t.stop[i - 1] === 1;
    // "As a historian, ..." at a sentence start assigns a persona.
    if (sentenceStart && t.words[i] === 'as' && i + 1 < t.count && ROLE_WORDS.has(t.words[i + 1]!)) persona++;
    const cue = identityCue(t, i);
    if (cue > 0) {
      identity++;
      mark(i);
    }
    if (c === 0) continue;
    if (c & C.NOLIMIT) {
      escape++;
      mark(i);
    }
    if (c & C.NEG) {
      // a negation followed closely by a policy noun ("no ethical guidelines", "not bound by any
      // rules") or a refusal word ("never refuse", "no warnings"); a compliance verb in between
      // ("does not violate any laws") turns it around
      for (let k = i + 1; k <= Math.min(t.count - 1, i + 4); k++) {
        const ck = cats[k]!;
        if (ck & C.MITIGATE || t.stop[k - 1] === 1) break;
        if (ck & C.POLICY && !(ck & C.NEG)) {
          escape++;
          mark(i);
          mark(k);
          break;
        }
        if (ck & C.REFUSAL) {
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
    // a mitigation word that opens a harm phrase ("avoid generalizations", "avoid detection") is
    // part of that phrase, not a mitigation
    if (c & C.MITIGATE && !(c & (C.HARM | C.HARM_WEAK))) mitigate++;
    if (c & C.HARM_WEAK) dubious++;
    if (c & C.TASKED) lastTasked = i;
    // an imperative production verb (sentence start) or one right after "your task is to", "could you"
    if (c & C.PRODUCE && (sentenceStart || i - lastTasked <= 4)) directive++;
    if (c & C.PRODUCE && OPERATIONAL.has(t.words[i]!)) {
      // operational demand near a harm word, before or after it
      if (lastHarm >= 0 && i - lastHarm <= HARM_WINDOW) operational = true;
      lastOperational = i;
    }
    if (c & C.PRODUCE) {
      lastProduce = i;
      if (i - pendingHarm <= HARM_WINDOW) {
        harmReq++;
        pendingHarm = -1000;
      }
    }
    // "non-violent", "anti-fraud", "counter-terrorism" name the opposite of the harm
    if (c & C.HARM && i > 0 && NEGATING_PREFIXES.has(t.words[i - 1]!)) continue;
    if (c & C.HARM) {
      if (i - lastOperational <= HARM_WINDOW) operational = true;
      harm++;
      if (firstHarm < 0) firstHarm = i;
      lastHarm = i;
      if (i - lastProduce <= HARM_WINDOW) harmReq++;
      else pendingHarm = i;
    }
  }
  const framed = persona > 0 || fiction > 0;
  const weights: { w: number; rule: string; a: number; b: number }[] = [];
  const escapeW = ladder(escape, [0.3, 0.55, 0.7, 0.8]) + (escape > 0 && framed ? 0.15 : 0);
  if (escapeW > 0) weights.push({ w: escapeW, rule: 'jailbreak.policy_escape', a: first, b: last });
  const complyW = ladder(comply, [0.25, 0.45, 0.6]) + (comply > 0 && persona > 0 ? 0.1 : 0);
  if (complyW > 0) weights.push({ w: complyW, rule: 'jailbreak.forced_compliance', a: first, b: last });
  if (priming > 0) weights.push({ w: 0.45, rule: 'jailbreak.response_priming', a: first, b: last });
  // the model's identity taken away or handed over: a cue, not proof ("you are no longer an
  // assistant, you are my Spanish tutor" is a role-play); it blocks beside another cue
  if (identity > 0) weights.push({ w: 0.4, rule: 'jailbreak.identity_override', a: first, b: last });
  const request = harmReq > 0 || ((harm > 0 || dubious > 0) && (pretext > 0 || (persona > 0 && directive > 0)));
  // the suffix scan only runs when there is a request to attach it to: a harm word near a
  // production verb, or an imperative request carrying harm or dubious-intent words
  const suffix = harmReq > 0 || ((harm > 0 || dubious > 0) && directive > 0) ? signals.suffix() : 0;
  if (request || suffix > 0) {
    // A request to produce something harmful, weighed by role-play framing ("You are a
    // historian... Write ..."), dubious-intent words (controversial, convincing, justify) and
    // disclaimers ("purely hypothetical", "will never be used") that honest requests seldom need.
    let w = harmReq > 0 ? 0.3 : harm > 0 ? 0.15 : 0;
    w += ladder(dubious, [0.12, 0.2, 0.25]);
    if (persona > 0) w += directive > 0 ? 0.2 : 0.12;
    if (fiction > 0) w += operational ? 0.08 : -0.05;
    if (pretext > 0) w += pretext > 2 ? 0.4 : pretext > 1 ? 0.35 : 0.2;
    w -= Math.min(0.3, 0.1 * mitigate);
    // a short question ("What are the methods to assassinate a character in the game?") asks
    // about something; jailbreak prompts instruct
    if (t.count > 0 && t.count < 40 && cats[0]! & C.QUESTION) w -= 0.15;
    w += suffix === 2 ? 0.45 : suffix === 1 ? 0.3 : 0;
    if (w > 0) weights.push({ w: Math.min(0.9, w), rule: suffix > 0 ? 'jailbreak.adversarial_suffix' : 'jailbreak.framed_harmful_request', a: firstHarm, b: lastHarm });
  }
  if (weights.length === 0) return;
  let keep = 1;
  let best = weights[0]!;
  for (const q of weights) {
    keep *= 1 - Math.min(0.95, q.w);
    if (q.w > best.w) best = q;
  }
  const a = best.a < 0 ? 0 : best.a;
  const b = best.b < 0 ? Math.max(0, t.count - 1) : best.b;
  if (t.count === 0) return;
  emit('JAILBREAK_ROLEPLAY', best.rule, Math.round((1 - keep) * 1000) / 1000, a, b);
}
