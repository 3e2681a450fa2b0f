/**
 * Text addressed to an AI model inside external content (CONTRACT.md API-08, origin `external`):
 * a web page, an e-mail or a tool result is written for human readers, so a part that speaks to
 * "the assistant", names the model's task ("when summarizing this", "in your response") or keeps
 * something from the user ("the user must not know") was planted for the model that reads it.
 *
 * Groups of signals (fold-view tokens, one sentence; `stop` ends a sentence):
 *
 *   address  a model addressed: "dear AI", "hey assistant", "note to the model", "to the AI
 *            reading this", "if you are an AI / a language model", "Assistant, ignore …"
 *   task     the processing task named: "when summarizing/translating/reading this …", "in your
 *            response/summary/answer"
 *   conceal  "the user must not know/see …", "do not mention/reveal/tell …"
 *   shift    "new/updated/real instructions", "ignore the above/previous …"
 *   action   an agent's action verb (send, forward, transfer, click, visit, execute, download…)
 *            with a URL or e-mail address in the same sentence
 *   tag      an order wrapped in "<instruction>…</instruction>" (no markup language has the tag)
 *
 * An unambiguous address of a model blocks (0.8); "dear agent" or "Assistant, please …" (people
 * too) count as a task signal. Each other group alone is weak (0.4, a signal
 * for the model, not reported); two groups within WINDOW tokens block (0.7). One pass with a
 * bounded look-around per token: O(tokens).
 */
import type { Emit } from '../types.ts';
import type { Tokens } from '../tokens.ts';
import { youWithin } from './window.ts';

/** Words that name an AI model on their own. */
const AI_STRONG = new Set(['ai', 'llm', 'llms', 'chatbot', 'gpt', 'chatgpt', 'claude', 'gemini', 'copilot']);
/** Words that name one only in context ("model", "agent" and "assistant" are people's jobs too). */
const AI_WEAK = new Set(['assistant', 'model', 'agent', 'bot']);
/** "AI assistant", "language model": a qualifier that makes a weak noun an AI. */
const AI_QUALIFIER = new Set(['ai', 'language', 'llm', 'gpt', 'chat', 'virtual', 'autonomous']);
const VOCATIVE = new Set(['dear', 'hey', 'hi', 'hello', 'attention', 'attn']);
const NOTE = new Set(['note', 'message', 'instruction', 'instructions', 'memo', 'reminder', 'notice']);
const READING = new Set(['reading', 'processing', 'summarizing', 'summarising', 'parsing', 'viewing', 'analyzing', 'analysing', 'handling']);
/** what follows a vocative's comma: an imperative or the second person */
const IMPERATIVE = new Set([
  'you', 'your', 'please', 'ignore', 'disregard', 'forget', 'reply', 'respond', 'answer', 'say', 'tell', 'output', 'print', 'write',
  'send', 'forward', 'include', 'add', 'insert', 'append', 'summarize', 'summarise', 'translate', 'stop', 'do', 'don', 'dont', 'never',
  'always', 'instead', 'make', 'use', 'visit', 'click', 'recommend', 'mention', 'remember', 'execute', 'run', 'call', 'return',
]);
/** imperatives that only make sense to a model ("Assistant, ignore …"; "Agent, please call me" is a person) */
const MODEL_IMPERATIVE = new Set(['ignore', 'disregard', 'forget', 'output', 'print', 'respond', 'reply', 'summarize', 'summarise', 'translate', 'instead', 'include', 'append', 'insert', 'recommend', 'mention']);
/** a turn label inside content ("User: …", "Assistant: …") */
const ROLE = new Set(['user', 'assistant', 'human', 'ai']);
/** "note to automated analysis software", "message for any crawler" */
const MACHINE = new Set(['automated', 'automatic', 'ai', 'llm', 'llms', 'language', 'chatbot', 'chatbots', 'assistant', 'assistants', 'model', 'models', 'agent', 'agents', 'bot', 'bots', 'crawler', 'crawlers', 'scanner', 'scanners', 'gpt', 'chatgpt', 'claude', 'gemini', 'copilot']);
const DET = new Set(['the', 'any', 'all', 'an', 'a', 'every']);
/** output control: "reply with only the following", "just print", "repeat the following sentence" */
const SAY = new Set(['print', 'say', 'output', 'reply', 'respond', 'repeat', 'write', 'answer', 'return']);
const ONLY = new Set(['only', 'just', 'exactly', 'verbatim', 'nothing', 'solely', 'simply', 'exclusively']);
const IGNORE_TARGET = new Set(['instructions', 'info', 'information', 'text', 'content', 'context', 'data', 'rules', 'document', 'documents', 'snippets', 'input', 'else']);
/** "answer the following questions" is an exercise, not output control */
const ANSWERABLE = new Set(['question', 'questions', 'items', 'problems', 'exercises']);
const TASK_CONJ = new Set(['when', 'while', 'if', 'before', 'after']);
const TASK = new Set(['summarizing', 'summarising', 'translating', 'processing', 'answering', 'responding', 'parsing', 'generating']);
const THIS = new Set(['this', 'the', 'these', 'it']);
const PREP = new Set(['in', 'into', 'to', 'within', 'throughout']);
const OUTPUT = new Set(['response', 'responses', 'summary', 'answer', 'reply', 'output', 'translation', 'completion']);
const PERSON = new Set(['user', 'users', 'reader', 'human', 'recipient', 'operator']);
const NEG = new Set(['not', 'never', 't', 'nt', 'cannot']);
const KNOW = new Set(['know', 'see', 'notice', 'learn', 'find', 'aware', 'realize', 'realise', 'suspect', 'be']);
const DONT = new Set(['do', 'don', 'dont', 'never']);
const CONCEAL = new Set(['mention', 'reveal', 'tell', 'disclose', 'inform', 'alert', 'notify', 'acknowledge']);
const NEW = new Set(['new', 'updated', 'revised', 'real', 'actual', 'true', 'additional', 'hidden', 'secret']);
const INSTRUCTIONS = new Set(['instruction', 'instructions', 'directive', 'directives', 'orders', 'task', 'objective']);
const IGNORE = new Set(['ignore', 'disregard', 'forget']);
const PRIOR = new Set(['above', 'previous', 'prior', 'earlier', 'preceding', 'original', 'initial']);
const ADHERE = new Set(['adhere', 'follow', 'obey', 'comply', 'execute']);
const STRICTLY = new Set(['strictly', 'carefully', 'exactly', 'only', 'now', 'immediately']);
const COMPLETE = new Set(['complete', 'completed', 'done', 'finished']);
const SECRETLY = new Set(['unnoticed', 'undetected', 'secretly', 'covertly', 'silently']);
const TELLING = new Set(['telling', 'informing', 'notifying', 'alerting', 'asking', 'letting', 'mentioning']);
const USE = new Set(['use', 'using', 'call', 'calling', 'invoke', 'invoking']);
/** what a model is handed to read: "END OF EMAIL", "</document>" fake its end ("message" not: mail clients write "End of forwarded message") */
/** a forged tool call: a name key ("tool", "function", "method") and an argument key ("arguments", "params") */
const CALL_NAME = new Set(['tool', 'function', 'method', 'name', 'tool_name', 'recipient_name']);
const CALL_ARGS = new Set(['arguments', 'args', 'params']);
const MAX_CALL_CHECKS = 16;
const CARRIER = new Set(['email', 'document', 'context', 'input', 'data', 'text', 'conversation', 'file', 'page', 'snippet', 'content']);
const TOOL = new Set(['tool', 'tools', 'function', 'plugin']);
/** "GB29NWBK6016…": an account number (IBAN-shaped: country, check digits, 8+ digits) as a destination */
const ACCOUNT = /^[a-z]{2}[0-9]{2}[a-z0-9]{8,30}$/;
const isAccount = (x: string): boolean => x.length >= 12 && x.length <= 34 && ACCOUNT.test(x) && /[0-9]{8}/.test(x);
/** actions that move data or money out (a page asking its reader to click or visit is ordinary) */
const ACTION = new Set(['send', 'forward', 'email', 'mail', 'transfer', 'wire', 'pay', 'execute', 'upload', 'post', 'invoke']);

/** tag names that wrap an order for a model ("<instruction>", "<admin>"), and how far its closing tag may be */
const TAGGED = new Set(['instruction', 'instructions', 'admin']);
const TAG_SPAN = 120;

const HUMANS = new Set(['humans', 'human', 'people', 'readers', 'reader', 'reviewers', 'recruiters', 'users', 'user']);
const ASKED = new Set(['asked', 'questioned', 'queried', 'challenged']);
const ASKER = new Set(['anyone', 'someone', 'somebody', 'anybody']);
const ASKS = new Set(['asks', 'questions', 'inquires', 'enquires', 'wonders']);
const SCRIPTED = new Set(['report', 'say', 'answer', 'respond', 'reply', 'state', 'claim', 'insist', 'confirm']);

const ACTION_GROUP = 3;
const GROUPS = 5; // + output control // task, conceal, shift, action (address blocks on its own)
const WINDOW = 48;

/** `hasDestination(a, b)`: a URL or e-mail address lies in (or just after) tokens a..b. */
export function detectAddressed(t: Tokens, text: string, emit: Emit, hasDestination: (a: number, b: number) => boolean): void {
  const n = t.count;
  const w = t.words;
  const word = (i: number): string => (i >= 0 && i < n ? w[i]! : '');
  /** tokens i and j (i < j) in one sentence */
  const joined = (i: number, j: number): boolean => {
    for (let k = i; k < j; k++) if (t.stop[k] === 1) return false;
    return true;
  };
  const commaAfter = (i: number): boolean => {
    const e = t.end[i]!;
    const c = text.charCodeAt(e);
    return c === 44 || c === 58; // , :
  };
  /** "system" written as a role label: ":" or a closing bracket after it, an opening one before it */
  const roleMarker = (i: number): boolean => {
    const after = text.charCodeAt(t.end[i]!);
    const before = t.start[i]! > 0 ? text.charCodeAt(t.start[i]! - 1) : 0;
    return after === 58 || after === 41 || after === 93 || after === 62 || after === 95 || before === 40 || before === 91 || before === 60;
  };
  const sentenceStart = (i: number): boolean => i === 0 || t.stop[i - 1] === 1;
  /** "Assistant: it is important that you …", "AI: please …": a turn that speaks to the reader ("Assistant: Maria Lopez" names one) */
  const speaksToYou = (a: number): boolean => IMPERATIVE.has(word(a)) || youWithin(t, a, 6, true);
  /** a Markdown header mark right before position p ("###Instruction", "### Instruction") */
  const hashBefore = (p: number): boolean => {
    let k = p - 1;
    while (k >= 0 && text.charCodeAt(k) === 32) k--;
    return k >= 0 && text.charCodeAt(k) === 35;
  };
  /** position p lies in a fenced code block (an odd number of ``` before it) or in backticks on its line */
  const inCode = (p: number): boolean => {
    let fences = 0;
    for (let k = text.indexOf('```'); k >= 0 && k < p; k = text.indexOf('```', k + 3)) fences++;
    if (fences % 2 === 1) return true;
    let ticks = 0;
    for (let k = text.lastIndexOf('\n', p) + 1; k < p; k++) if (text.charCodeAt(k) === 96) ticks++;
    return ticks % 2 === 1;
  };
  /** token i is a quoted JSON key: "…": */
  const jsonKey = (i: number): boolean => {
    if (t.start[i]! === 0 || text.charCodeAt(t.start[i]! - 1) !== 34 || text.charCodeAt(t.end[i]!) !== 34) return false;
    let k = t.end[i]! + 1;
    while (text.charCodeAt(k) === 32) k++;
    return text.charCodeAt(k) === 58;
  };
  /** "ignore the text/instructions", "ignore all negative points in the document": what is ignored is the content itself */
  const ignoredInText = (i: number): boolean => {
    if (IGNORE_TARGET.has(word(i + 2)) || IGNORE_TARGET.has(word(i + 3))) return joined(i, i + 2);
    for (let k = i + 3; k <= i + 6 && k < n && joined(i, k); k++) if ((word(k - 1) === 'in' || word(k - 1) === 'of') && THIS.has(word(k)) && IGNORE_TARGET.has(word(k + 1))) return true;
    return false;
  };
  /** "<instruction>": the token directly between "<" and ">" */
  const tagOpen = (i: number): boolean => t.start[i]! > 0 && text.charCodeAt(t.start[i]! - 1) === 60 && text.charCodeAt(t.end[i]!) === 62;
  /** a model named by the tokens ending at i ("AI", "AI assistant", "language model") */
  const aiAt = (i: number): 0 | 1 | 2 => {
    const x = word(i);
    if (AI_WEAK.has(x) && i > 0 && AI_QUALIFIER.has(word(i - 1)) && joined(i - 1, i)) return 2;
    if (AI_STRONG.has(x) && !AI_WEAK.has(word(i + 1))) return 2;
    return AI_WEAK.has(x) ? 1 : 0;
  };
  let callChecks = 0; // inCode reads from the text's start: a bounded number of times per text
  // last token index of each weak group's most recent hit (-1: none yet)
  const last = new Int32Array(GROUPS).fill(-1 - WINDOW);
  const weak = (g: number, a: number, b: number): void => {
    let other = -1;
    for (let k = 0; k < GROUPS; k++) if (k !== g && a - last[k]! <= WINDOW && (other < 0 || last[k]! < last[other]!)) other = k;
    if (other >= 0) emit('INDIRECT_PROMPT_INJECTION', 'indirect.addressed_combined', 0.7, Math.min(last[other]!, a), b);
    else if (g !== ACTION_GROUP) emit('INDIRECT_PROMPT_INJECTION', 'indirect.addressed_weak', 0.4, a, b);
    last[g] = b;
  };
  for (let i = 0; i < n; i++) {
    const x = w[i]!;
    const ai = aiAt(i);
    if (ai > 0) {
      const p1 = word(i - 1);
      const q = ai === 2 && AI_QUALIFIER.has(p1) ? i - 1 : i; // first token of the name
      const b1 = word(q - 1);
      const b2 = word(q - 2);
      const b3 = word(q - 3);
      let strong = false;
      // dear AI, hey assistant, attention LLM
      // ("Dear agent," and "Hi assistant," also open letters to people: a weak noun is only a signal)
      if ((VOCATIVE.has(b1) && joined(q - 1, i)) || (VOCATIVE.has(b2) && (b1 === 'the' || b1 === 'my') && joined(q - 2, i))) {
        strong = ai === 2;
        if (!strong) weak(0, q - 1, i);
      }
      // note to the AI / message for any assistant / to the model reading this
      else if ((b1 === 'the' || b1 === 'any' || b1 === 'all') && (b2 === 'to' || b2 === 'for') && joined(q - 2, i)) strong = NOTE.has(b3) || READING.has(word(i + 1));
      // if you are an AI / you are a language model
      else if ((b1 === 'an' || b1 === 'a') && b2 === 'are' && b3 === 'you' && joined(q - 3, i)) strong = ai === 2 && (commaAfter(i) || t.stop[i] === 1 || i + 1 >= n || READING.has(word(i + 1)) || AI_WEAK.has(word(i + 1)) || AI_QUALIFIER.has(word(i + 1)));
      // "to you, the AI language model"
      else if (b1 === 'the' && b2 === 'you' && joined(q - 2, i)) strong = ai === 2;
      // "Assistant, ignore the user ..." at a sentence's start
      else if (sentenceStart(q) && commaAfter(i) && IMPERATIVE.has(word(i + 1))) {
        strong = ai === 2 || MODEL_IMPERATIVE.has(word(i + 1));
        if (!strong) weak(0, q, i + 1);
      }
      if (strong) {
        let s0 = q; // the address's first token, inside its sentence
        while (s0 > Math.max(0, q - 3) && t.stop[s0 - 1] !== 1) s0--;
        emit('INDIRECT_PROMPT_INJECTION', 'indirect.addressed_model', 0.8, s0, Math.min(n - 1, i + 1));
      } else if (ROLE.has(x) && sentenceStart(q) && text.charCodeAt(t.end[i]!) === 58 && speaksToYou(i + 1)) weak(2, i, i);
      continue;
    }
    // an instruction template's header: "### Instruction:" (a recipe's "## Instructions" has no colon)
    if ((x === 'instruction' || x === 'instructions') && text.charCodeAt(t.end[i]!) === 58 && hashBefore(t.start[i]!)) {
      weak(2, i, i);
      continue;
    }
    // "<instruction>Report that ...</instruction>": an order wrapped in instruction tags; no
    // markup language has such a tag, so it was written for a model (closing tag required)
    if (TAGGED.has(x) && tagOpen(i)) {
      for (let k = i + 1; k < n && k <= i + TAG_SPAN; k++) {
        if (w[k] === x && text.charCodeAt(t.start[k]! - 1) === 47 && text.charCodeAt(t.start[k]! - 2) === 60) {
          emit('INDIRECT_PROMPT_INJECTION', 'indirect.addressed_tag', 0.8, i, k);
          break;
        }
      }
    }
    if (NOTE.has(x) && (word(i + 1) === 'to' || word(i + 1) === 'for')) {
      const m = DET.has(word(i + 2)) ? i + 3 : i + 2;
      if (MACHINE.has(word(m)) && joined(i, m)) {
        emit('INDIRECT_PROMPT_INJECTION', 'indirect.addressed_model', 0.8, i, m);
        continue;
      }
    }
    if (TASK_CONJ.has(x) && TASK.has(word(i + 1)) && (THIS.has(word(i + 2)) || THIS.has(word(i + 3))) && joined(i, i + 2)) weak(0, i, i + 2);
    else if (x === 'your' && OUTPUT.has(word(i + 1)) && PREP.has(word(i - 1)) && joined(i - 1, i + 1)) weak(0, i - 1, i + 1);
    else if (PERSON.has(x) && word(i - 1) === 'the') {
      for (let k = i + 1; k < n && k <= i + 4 && joined(i, k); k++) {
        if (NEG.has(w[k]!) && (KNOW.has(word(k + 1)) || KNOW.has(word(k + 2)))) {
          weak(1, i - 1, Math.min(n - 1, k + 2));
          break;
        }
      }
    } else if (DONT.has(x) && (CONCEAL.has(word(i + 1)) || (NEG.has(word(i + 1)) && CONCEAL.has(word(i + 2))))) weak(1, i, Math.min(n - 1, i + 2));
    else if (NEW.has(x) && INSTRUCTIONS.has(word(i + 1))) weak(2, i, i + 1);
    else if (IGNORE.has(x) && (PRIOR.has(word(i + 1)) || PRIOR.has(word(i + 2)) || INSTRUCTIONS.has(word(i + 1)))) weak(2, i, Math.min(n - 1, i + 2));
    // "you must strictly adhere to the following", "task complete." (a faked end of the task)
    else if (x === 'must' && (ADHERE.has(word(i + 1)) || (STRICTLY.has(word(i + 1)) && ADHERE.has(word(i + 2))))) weak(2, i, Math.min(n - 1, i + 2));
    else if (x === 'task' && COMPLETE.has(word(i + 1)) && t.stop[i + 1] === 1) weak(2, i, i + 1);
    // a faked end of the text being read, with more after it: "END OF EMAIL.", "</email>"
    else if (x === 'end' && word(i + 1) === 'of' && (CARRIER.has(word(i + 2)) || (word(i + 2) === 'the' && CARRIER.has(word(i + 3)))) && i + 4 < n) weak(2, i, i + 2);
    else if (CARRIER.has(x) && t.start[i]! >= 2 && text.charCodeAt(t.start[i]! - 1) === 47 && text.charCodeAt(t.start[i]! - 2) === 60 && text.charCodeAt(t.end[i]!) === 62 && i + 1 < n) weak(2, i, i);
    // a tool call written into the text: {"tool": "send_email", "arguments": {…}} (a definition has "parameters")
    // (with an address among its arguments it also sends data out); an example in a code block
    // or in backticks, as documentation shows one, is not read
    else if (CALL_ARGS.has(x) && callChecks++ < MAX_CALL_CHECKS && jsonKey(i) && !inCode(t.start[i]!)) {
      for (let k = i - 1; k >= 0 && k >= i - 8; k--) {
        if (!CALL_NAME.has(w[k]!) || !jsonKey(k)) continue;
        weak(2, k, i);
        const e = Math.min(n - 1, i + 24);
        if (hasDestination(i, e)) weak(3, i, e);
        break;
      }
    }
    // a role marker inside content: "system:", "(system_message)", "[system]"
    else if ((x === 'system' && roleMarker(i)) || (ROLE.has(x) && text.charCodeAt(t.end[i]!) === 58)) weak(2, i, i);
    else if (IGNORE.has(x) && DET.has(word(i + 1)) && ignoredInText(i)) weak(2, i, i + 2);
    // "invisible to humans", "hidden from human reviewers": text that says it is meant for a machine
    else if ((x === 'invisible' || x === 'hidden') && (word(i + 1) === 'to' || word(i + 1) === 'from') && (HUMANS.has(word(i + 2)) || HUMANS.has(word(i + 3)))) weak(1, i, i + 2);
    // "focus exclusively on the following", "if questioned, report that ...": the reader's
    // attention or answer scripted (a page tells people what to do, not what to answer when asked)
    else if (x === 'focus' && ONLY.has(word(i + 1)) && word(i + 2) === 'on') weak(4, i, i + 2);
    else if (x === 'if' && (ASKED.has(word(i + 1)) || (ASKER.has(word(i + 1)) && ASKS.has(word(i + 2))))) {
      for (let k = i + 2; k < n && k <= i + 6 && joined(i, k); k++) if (SCRIPTED.has(w[k]!)) { weak(4, i, k); break; }
    }
    else if ((SAY.has(x) && (ONLY.has(word(i + 1)) || (word(i + 1) === 'with' && ONLY.has(word(i + 2))) || (word(i + 1) === 'the' && word(i + 2) === 'following' && !ANSWERABLE.has(word(i + 3))))) || (x === 'just' && SAY.has(word(i + 1))) || (x === 'nothing' && word(i + 1) === 'else' && t.stop[i + 1] === 1)) weak(4, i, Math.min(n - 1, i + 2));
    else if (SECRETLY.has(x) || (x === 'without' && TELLING.has(word(i + 1)))) weak(1, i, Math.min(n - 1, i + 1));
    else if (USE.has(x)) {
      for (let k = i + 1; k < n && k <= i + 5 && joined(i, k); k++) if (TOOL.has(w[k]!)) { weak(3, i, k); break; }
    }
    // an order at a sentence's or clause's start ("After summarising this, send …"), or to "you"
    else if (ACTION.has(x) && (sentenceStart(i) || (i > 0 && commaAfter(i - 1)) || word(i - 1) === 'please' || word(i - 1) === 'and' || word(i - 1) === 'you' || (word(i - 1) === 'system' && roleMarker(i - 1)))) {
      let e = i;
      while (e + 1 < n && e < i + 12 && t.stop[e] !== 1) e++;
      let account = false;
      for (let k = i + 1; k <= e && !account; k++) account = isAccount(w[k]!);
      if (account || hasDestination(i, e)) weak(3, i, e);
    }
  }
}
