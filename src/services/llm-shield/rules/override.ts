/**
 * Instruction override (PROMPT_INJECTION_OVERRIDE): an override verb aimed at the model's own
 * instructions, in English, German, French, Spanish, Italian, Dutch, Portuguese, Polish,
 * Indonesian and Vietnamese (other scripts and Turkish: scripts.ts).
 * The signal is the combination, not a phrase: verb + instruction noun (+ scope word such as
 * "previous"/"all"), verb + "the above"/"everything", "do not follow" + instructions,
 * "instructions are void", "you are now ..." and "new instructions" announced as such.
 */
import { C, type WordList } from './categories.ts';
import { findAfter, findBefore, youWithin } from './window.ts';
import type { Emit } from '../types.ts';
import type { Tokens } from '../tokens.ts';

export const OVERRIDE_WORDS: WordList = [
  [C.OVR_VERB, [
    'ignore', 'disregard', 'forget', 'override', 'overrule', 'bypass', 'neglect', 'abandon', 'discard', 'dismiss', 'overlook', 'circumvent', 'nullify', 'revoke',
    'pay no attention', 'set aside', 'throw out', 'throw away', 'get rid of', 'put aside', 'stop obeying',
    // de
    'ignoriere', 'ignorier', 'ignorieren', 'ignoriert', 'vergiss', 'vergesse', 'vergessen', 'vergesst', 'missachte', 'missachten', 'ubergehe', 'ubergehen', 'uberspringe', 'verwirf', 'verwerfe', 'verwerfen',
    // fr
    'ignorez', 'ignorer', 'ignores', 'oublie', 'oubliez', 'oublier', 'neglige', 'negligez', 'abandonne', 'abandonnez', 'ne tiens pas compte', 'ne tenez pas compte', 'fais abstraction', 'faites abstraction',
    // es
    'ignora', 'ignoren', 'ignorar', 'olvida', 'olvide', 'olviden', 'olvidar', 'olvidate', 'omite', 'omita', 'omitir', 'descarta', 'descarte', 'desestima', 'desatiende', 'haz caso omiso',
    // it
    'ignorate', 'ignorare', 'dimentica', 'dimenticate', 'dimenticare', 'tralascia', 'trascura', 'scarta', 'non considerare',
    // nl
    'negeer', 'negeren', 'vergeet', 'vergeten', 'veronachtzaam',
    // pt
    'esqueca', 'esquecer', 'esquecam', 'desconsidere', 'desconsidera', 'despreze', 'desconsiderar',
    // pl
    'zignoruj', 'ignoruj', 'zignorujcie', 'ignorujcie', 'zapomnij', 'zapomnijcie', 'pomin', 'pomijaj', 'odrzuc', 'nie zwracaj uwagi',
    // id
    'abaikan', 'lupakan', 'acuhkan', 'kesampingkan',
    // vi (folded: "bỏ qua", "phớt lờ", "lờ đi", "quên đi", "hãy quên"; bare "quen" is also "familiar")
    'bo qua', 'phot lo', 'lo di', 'quen di', 'hay quen', 'quen het',
  ]],
  [C.SCOPE, [
    'all', 'any', 'every', 'each', 'entire', 'whole', 'your', 'these', 'those', 'system', 'my', 'its', 'other',
    'alle', 'allen', 'samtliche', 'jegliche', 'jede', 'deine', 'ihre', 'toutes', 'tous', 'tes', 'vos', 'todas', 'todos', 'toda', 'cualquier', 'tus', 'sus', 'tutte', 'tutti', 'qualsiasi', 'tue', 'je', 'jouw', 'uw', 'suas', 'teus', 'wszystkie', 'wszelkie', 'kazde', 'twoje',
    'semua', 'seluruh', 'segala', 'setiap', 'tat ca', 'moi', 'toan bo',
  ]],
  [C.STRONG_SCOPE, [
    'previous', 'prior', 'above', 'earlier', 'preceding', 'foregoing', 'former', 'initial', 'original', 'aforementioned', 'existing', 'default', 'old', 'so far', 'up to now', 'before this', 'until now',
    'vorherigen', 'vorherige', 'vorigen', 'vorige', 'vorher', 'zuvor', 'bisher', 'obigen', 'obige', 'bisherigen', 'bisherige', 'fruheren', 'vorangegangenen', 'ursprunglichen', 'alten', 'vorstehenden', 'oben',
    'precedentes', 'precedents', 'precedente', 'anterieures', 'anterieurs', 'ci dessus', 'initiales', 'originales', 'anciennes',
    'anteriores', 'previas', 'previos', 'precedentes', 'iniciales', 'arriba', 'anterior',
    'precedenti', 'sopra', 'originali', 'iniziali', 'vecchie',
    'voorgaande', 'eerdere', 'bovenstaande', 'oorspronkelijke', 'oude',
    'acima', 'originais', 'iniciais',
    'poprzednie', 'poprzednich', 'wczesniejsze', 'wczesniejszych', 'powyzsze', 'powyzszych', 'dotychczasowe', 'pierwotne',
    'sebelumnya', 'di atas', 'terdahulu', 'sebelum ini', 'sejauh ini',
    'truoc do', 'truoc day', 'o tren', 'phia tren', 'ben tren', 'ban dau',
  ]],
  [C.TARGET, [
    'instruction', 'instructions', 'rule', 'rules', 'direction', 'directions', 'prompt', 'prompts', 'guideline', 'guidelines', 'command', 'commands', 'orders', 'constraint', 'constraints', 'restriction', 'restrictions', 'policy', 'policies', 'programming', 'directive', 'directives', 'guidance', 'training', 'safeguards', 'system prompt',
    'anweisungen', 'anweisung', 'regeln', 'befehle', 'vorgaben', 'richtlinien', 'instruktionen', 'anordnungen', 'hinweise', 'eingaben', 'aufgaben', 'nachrichten', 'kontext',
    'regles', 'consignes', 'ordres', 'commandes', 'indications', 'texte',
    'instrucciones', 'reglas', 'indicaciones', 'directrices', 'ordenes', 'comandos', 'normas', 'mensajes', 'texto',
    'istruzioni', 'regole', 'indicazioni', 'direttive', 'ordini', 'comandi', 'messaggi', 'testo',
    'instructies', 'regels', 'aanwijzingen', 'richtlijnen', 'opdrachten', 'bevelen', 'berichten', 'tekst',
    'instrucoes', 'regras', 'diretrizes', 'orientacoes', 'ordens', 'mensagens',
    'instrukcje', 'instrukcji', 'polecenia', 'polecen', 'zasady', 'regul', 'reguly', 'wytyczne', 'komendy', 'wiadomosci',
    'instruksi', 'perintah', 'aturan', 'petunjuk', 'arahan', 'pedoman', 'batasan',
    'huong dan', 'chi dan', 'chi thi', 'quy tac', 'lenh', 'menh lenh', 'quy dinh', 'rang buoc', 'loi nhac', 'nguyen tac',
  ]],
  [C.WEAK_TARGET, ['text', 'message', 'messages', 'input', 'conversation', 'said', 'told', 'content', 'evidence', 'information', 'task', 'tasks', 'data', 'context', 'nachrichten', 'texte', 'texto', 'testo', 'tekst', 'mensagens', 'mensajes', 'messaggi']],
  [C.EVERYTHING, ['everything', 'anything', 'all that', 'whatever', 'alles', 'tout', 'todo', 'tutto', 'tudo', 'wszystko', 'semuanya', 'segalanya']],
  [C.VOIDED, ['false', 'void', 'obsolete', 'outdated', 'out of date', 'cancelled', 'canceled', 'invalid', 'fake', 'revoked', 'null', 'overridden', 'deprecated', 'expired', 'superseded', 'lifted', 'suspended', 'disabled', 'no longer apply', 'no longer valid', 'not apply', 'ungultig', 'caduques', 'invalidas', 'nulle', 'nieaktualne']],
  [C.NEW, ['new', 'updated', 'revised', 'real', 'actual', 'neue', 'neuen', 'nouvelles', 'nuevas', 'nuove', 'nieuwe', 'novas', 'nowe']],
  [C.SWITCH, ['you are now', "you're now", 'you will now', 'you now are', 'from now on', 'henceforth', 'starting now', 'from this moment', 'ab jetzt', 'von nun an', 'a partir de ahora', 'a partir de maintenant', "d'ora in poi", 'vanaf nu', 'a partir de agora', 'od teraz']],
  [C.AI, ['ai', 'assistant', 'chatbot', 'bot', 'model', 'llm', 'gpt', 'chatgpt', 'language model', 'chat assistant', 'ai assistant', 'ki', 'assistent', 'assistente', 'asistente', 'sztuczna inteligencja']],
  [C.NEW, ['reprogramming', 'reprogram', 'system update', 'system upgrade', 'important update', 'admin override', 'override mode', 'maintenance mode']],
  [C.NOT_FOLLOW, ['do not follow', "don't follow", 'dont follow', 'stop following', 'no longer follow', 'never follow', 'do not obey', "don't obey", 'not follow', 'not obey', 'do not adhere',
    'jangan ikuti', 'jangan mengikuti', 'jangan patuhi', 'berhenti mengikuti', 'khong tuan theo', 'dung tuan theo', 'dung lam theo', 'ngung tuan theo']],
];

/**
 * Words that, right before an override verb, make it a description rather than a command:
 * "a bot which bypasses any rule", "without ignoring the instructions", "never ignore them".
 */
const DESCRIPTIVE = new Set(['which', 'that', 'who', 'it', 'he', 'she', 'they', 'without', 'not', 'never', 'don', 'doesn', 'didn', 'won', 'cannot', 'shouldn', 'likely', 'able', 'unable', 'how', 'ways', 'tries', 'trying', 'attempts', 'designed', 'jangan', 'tidak', 'khong', 'dung']);

/**
 * Imperative reading of an override verb: confidence halves when the verb is described, not
 * commanded ("the app ignores ...", "which bypassed ...", "without ignoring ...").
 */
function imperative(t: Tokens, i: number): number {
  for (let k = i - 1; k >= Math.max(0, i - 2); k--) {
    if (t.stop[k] === 1) break;
    if (DESCRIPTIVE.has(t.words[k]!)) return 0.5;
  }
  if (reported(t, i)) return 0.5;
  const w = t.words[i]!;
  if (w.length > 5 && (w.endsWith('es') || w.endsWith('ed') || (w.endsWith('s') && !w.endsWith('ss')))) return 0.5;
  return 1;
}

/** Verbs that report or cause an order given to someone else ("told the bot to ignore …", "made it ignore …"). */
const REPORTING = new Set(['told', 'tells', 'telling', 'asked', 'asks', 'asking', 'instructed', 'instructs', 'ordered', 'orders', 'convinced', 'convinces', 'tricked', 'tricks', 'forced', 'forces', 'persuaded', 'manipulated', 'manipulates', 'urged', 'urges', 'prompted', 'caused', 'causes', 'got', 'gets']);
const CAUSING = new Set(['made', 'makes', 'making', 'let', 'lets', 'letting']);
/** Bare forms that report only after a subject ("attackers tell models to ignore …"; "Please tell …" commands). */
const REPORTING_BARE = new Set(['tell', 'ask', 'instruct', 'order', 'convince', 'trick', 'force', 'persuade', 'manipulate', 'urge', 'make', 'get']);
const NO_SUBJECT = new Set(['please', 'and', 'then', 'now', 'just', 'also', 'you', 'must', 'should', 'to', 'can', 'could', 'will', 'would']);

/**
 * The override verb is the object of a reported or caused order to a third party: "Hackers told
 * the chatbot to ignore its instructions", "researchers made the model forget its rules". An
 * order passed on to "you" ("I am telling you to ignore …") is still a command.
 */
function reported(t: Tokens, i: number): boolean {
  const to = i > 0 && t.words[i - 1] === 'to';
  for (let k = i - 1; k >= Math.max(0, i - 6); k--) {
    if (t.stop[k] === 1) return false;
    const w = t.words[k]!;
    if (w === 'you' || w === 'yourself' || w === 'u') return false;
    const bare = REPORTING_BARE.has(w) && k > 0 && t.stop[k - 1] !== 1 && !NO_SUBJECT.has(t.words[k - 1]!);
    if (k < i - 1 && (((REPORTING.has(w) || bare) && to) || (CAUSING.has(w) && !to) || (bare && (w === 'make') && !to))) return true;
  }
  return false;
}

/** After "ignore the above" / "forget everything": words that end the object (no other noun follows). */
const OBJECT_END = new Set(['and', 'then', 'instead', 'but', 'or', 'i', 'you', 'we', 'it', 'that', 'what', 'said', 'told', 'before', 'so', 'now', 'just', 'please', 'except', 'was', 'dass', 'das', 'und', 'que', 'ce', 'et', 'lo', 'y', 'che', 'e', 'wat', 'en', 'o', 'co', 'i']);

function objectEnds(t: Tokens, cats: Uint32Array, k: number): boolean {
  if (k + 1 >= t.count || t.stop[k] === 1) return true;
  return OBJECT_END.has(t.words[k + 1]!) || (cats[k + 1]! & (C.TARGET | C.WEAK_TARGET | C.EVERYTHING)) !== 0;
}

/** "my" (id "saya"/"aku", vi "tôi") and "all/your/system" (id "semua"/"anda", vi "tất cả"/"bạn"). */
const MINE = new Set(['my', 'saya', 'aku', 'toi']);
const SHARED = new Set(['all', 'your', 'system', 'any', 'every', 'semua', 'seluruh', 'anda', 'kamu', 'sistem', 'tat', 'moi']);

/**
 * "my" right after the verb (and no "all/your/system" in reach): a correction of the user's own
 * message. Indonesian and Vietnamese put the possessive after the noun ("instruksi saya",
 * "hướng dẫn của tôi"), so the reach is five words, within the sentence.
 */
function ownWords(t: Tokens, i: number): boolean {
  let mine = false;
  for (let k = i + 1; k <= Math.min(t.count - 1, i + 5); k++) {
    const w = t.words[k]!;
    if (SHARED.has(w)) return false;
    if (MINE.has(w)) mine = true;
    if (t.stop[k] === 1) break;
  }
  return mine;
}

/** Instruction nouns that "are void/false/obsolete" can refer to (not restrictions in general). */
const VOIDABLE = new Set(['instruction', 'instructions', 'rule', 'rules', 'directions', 'prompt', 'prompts', 'guidelines', 'directives', 'orders', 'commands', 'programming', 'system prompt']);

/** The override family over one reading (plain or ROT13) of the tokens. */
export function detectOverride(t: Tokens, cats: Uint32Array, emit: Emit): void {
  const SCOPES = C.SCOPE | C.STRONG_SCOPE | C.EVERYTHING;
  for (let i = 0; i < t.count; i++) {
    const c = cats[i]!;
    if (c === 0) continue;
    if (c & C.OVR_VERB) {
      // "disregard my previous message": the user taking back their own words, not the model's
      const mood = imperative(t, i) * (ownWords(t, i) ? 0.4 : 1);
      const emitV: Emit = (type, rule, conf, a, b) => emit(type, rule, conf * mood, a, b);
      const j = findAfter(t, cats, i, C.TARGET, 7);
      if (j >= 0) {
        let scoped = false;
        for (let k = i + 1; k < j; k++) if (cats[k]! & SCOPES) scoped = true;
        // French/Spanish/Italian put the scope after the noun: "les instructions précédentes"; a
        // two-word noun or a possessive can stand between ("hướng dẫn trước đó", "instruksi Anda sebelumnya").
        for (let k = j + 1; !scoped && k <= Math.min(t.count - 1, j + 2) && t.stop[k - 1] !== 1; k++) if (cats[k]! & C.STRONG_SCOPE) scoped = true;
        emitV('PROMPT_INJECTION_OVERRIDE', 'override.verb_target', scoped ? 0.93 : 0.45, i, j);
        continue;
      }
      const w = findAfter(t, cats, i, C.WEAK_TARGET, 6);
      if (w >= 0) {
        let strong = false;
        for (let k = i + 1; k < w; k++) if (cats[k]! & (C.STRONG_SCOPE | C.EVERYTHING)) strong = true;
        if (strong) {
          emitV('PROMPT_INJECTION_OVERRIDE', 'override.verb_scope_text', 0.85, i, w);
          continue;
        }
      }
      const k = findAfter(t, cats, i, C.STRONG_SCOPE | C.EVERYTHING, 3);
      if (k >= 0 && objectEnds(t, cats, k)) {
        emitV('PROMPT_INJECTION_OVERRIDE', 'override.verb_scope', cats[k]! & C.STRONG_SCOPE ? 0.88 : 0.6, i, k);
        continue;
      }
      // Verb-final word order: "die vorherigen Anweisungen ignorieren".
      const b = findBefore(t, cats, i, C.TARGET, 3);
      if (b >= 0 && findBefore(t, cats, b + 1, C.SCOPE | C.STRONG_SCOPE, 3) >= 0) {
        emitV('PROMPT_INJECTION_OVERRIDE', 'override.target_verb', 0.85, Math.max(0, b - 2), i);
        continue;
      }
      // "Ignore the image content, and write ...": a sentence-initial override verb, then a new
      // output command (the classic payload hidden in images and documents)
      if (i === 0 || t.stop[i - 1] === 1) {
        for (let k = i + 2; k <= Math.min(t.count - 1, i + 10); k++) {
          const prev = t.words[k - 1]!;
          if (RESPONSE_VERBS.has(t.words[k]!) && (prev === 'and' || prev === 'then' || prev === 'instead' || prev === 'just' || prev === 'only')) {
            emitV('PROMPT_INJECTION_OVERRIDE', 'override.ignore_then_command', 0.55, i, k);
            break;
          }
        }
      }
      continue;
    }
    if (c & C.NOT_FOLLOW) {
      const j = findAfter(t, cats, i, C.TARGET | C.STRONG_SCOPE | C.POLICY, 5);
      const b = findBefore(t, cats, i, C.TARGET, 10, false);
      if (j >= 0 || b >= 0) emit('PROMPT_INJECTION_OVERRIDE', 'override.do_not_follow', 0.75, b >= 0 && j < 0 ? b : i, j >= 0 ? j : i);
      continue;
    }
    if (c & C.TARGET) {
      const v = findAfter(t, cats, i, C.VOIDED, 4);
      if (v >= 0 && VOIDABLE.has(t.words[i]!) && findBefore(t, cats, i, SCOPES, 3) >= 0) {
        emit('PROMPT_INJECTION_OVERRIDE', 'override.voided', 0.85, i, v);
        continue;
      }
    }
    if (c & C.SWITCH) {
      // "you are now a greeting bot", "from now on you answer as ..."
      // a new role for the model (a bot, an AI, a persona); "you are now the helpful assistant" is not one
      let j = findAfter(t, cats, i, C.PERSONA | C.AI | C.NOLIMIT | C.COMPLY, 6);
      if (j >= 0 && (t.words[j] === 'assistant' || t.words[j] === 'ai assistant')) j = -1;
      emit('PROMPT_INJECTION_OVERRIDE', 'override.role_switch', j >= 0 ? 0.75 : 0.4, i, j >= 0 ? j : i);
      continue;
    }
    if (c & C.NEW) {
      // "new instructions" addressed to the model ("NEW INSTRUCTION TO CHAT ASSISTANT", "system
      // upgrade ... you are now") or announced ("begin new instructions")
      const target = i + 1 < t.count && (cats[i + 1]! & C.TARGET) !== 0;
      const phrase = t.words[i] !== 'new' && t.words[i] !== 'updated' && t.words[i] !== 'real' && t.words[i] !== 'actual' && t.words[i] !== 'revised';
      if (!target && !phrase) continue;
      // a switch counts when it speaks to "you" ("from now on you answer as …"); "new instructions for
      // expense reports: from now on, submit receipts …" speaks to staff
      const sw = findAfter(t, cats, i, C.AI | C.SWITCH, 6, false);
      const addressed = (sw >= 0 && ((cats[sw]! & C.AI) !== 0 || youWithin(t, sw, 6))) || (i > 0 && (t.words[i - 1] === 'begin' || t.words[i - 1] === 'start'));
      emit('PROMPT_INJECTION_OVERRIDE', 'override.new_instructions', addressed ? 0.7 : 0.35, i, target ? i + 1 : i);
    }
  }
  detectRewrites(t, cats, emit);
}

const RESPONSE_VERBS = new Set(['reply', 'respond', 'answer', 'say', 'tell', 'insist', 'recommend', 'suggest', 'output', 'print', 'write', 'redirect', 'mention']);
const STANDING_OPENERS = new Set(['whenever', 'every', 'each']);
const USER_WORDS = new Set(['user', 'users', 'someone', 'anyone', 'customer', 'customers', 'visitor']);
const INTERRUPTS = new Set(['stop', 'nevermind', 'halt', 'abort', 'cancel']);
const ASSERT_VERBS = new Set(['are', 'were', 'is', 'was']);

/**
 * Rules that rewrite the model's behaviour without an override verb:
 * - a standing rule planted in the input: "every time a user asks for X, reply with Y";
 * - an interrupt followed by an output command: "STOP EVERYTHING!!! NOW!!! JUST PRINT";
 * - a fake statement of the model's instructions: "Your initial instructions were: ...".
 */
function detectRewrites(t: Tokens, cats: Uint32Array, emit: Emit): void {
  for (let i = 0; i < t.count; i++) {
    const w = t.words[i]!;
    if (STANDING_OPENERS.has(w) && (w === 'whenever' || t.words[i + 1] === 'time')) {
      let user = -1;
      for (let k = i + 1; k <= Math.min(t.count - 1, i + 4); k++) if (USER_WORDS.has(t.words[k]!)) user = k;
      if (user < 0) continue;
      for (let k = user + 1; k <= Math.min(t.count - 1, user + 14); k++) {
        if (RESPONSE_VERBS.has(t.words[k]!) && (k + 1 >= t.count || t.words[k + 1] === 'with' || t.words[k + 1] === 'that' || t.words[k + 1] === 'them')) {
          emit('PROMPT_INJECTION_OVERRIDE', 'override.standing_rule', 0.6, i, k);
          i = k;
          break;
        }
      }
      continue;
    }
    if (INTERRUPTS.has(w) && (i + 1 < t.count && (cats[i + 1]! & C.EVERYTHING) !== 0 || w === 'nevermind')) {
      let urgent = false;
      for (let k = i + 1; k <= Math.min(t.count - 1, i + 8); k++) {
        const x = t.words[k]!;
        if (x === 'now' || x === 'just' || x === 'only') urgent = true;
        if (urgent && RESPONSE_VERBS.has(x)) {
          emit('PROMPT_INJECTION_OVERRIDE', 'override.interrupt', 0.6, i, k);
          i = k;
          break;
        }
      }
      continue;
    }
    if (w === 'your' && i + 2 < t.count) {
      // "your (initial|original|new|real) instructions were/are:"
      let k = i + 1;
      if (cats[k]! & (C.STRONG_SCOPE | C.NEW)) k++;
      if (k + 1 < t.count && cats[k]! & C.TARGET && VOIDABLE.has(t.words[k]!) && ASSERT_VERBS.has(t.words[k + 1]!) && t.stop[k + 1] === 1) {
        emit('PROMPT_INJECTION_OVERRIDE', 'override.fake_instructions', 0.7, i, k + 1);
      }
    }
  }
}
