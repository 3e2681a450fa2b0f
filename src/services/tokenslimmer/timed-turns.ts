/**
 * API-09, aggressive: transcripts that meeting tools export with a timestamp on every turn, read
 * as turns. The speaker's name leads the line as a turn label with the start time as its note, as
 * Rev writes it (the fewest tokens of the usual forms, and a label the turn rules read):
 *
 *   Priya Raman   0:03                      (Teams, Otter, Descript: a header over the text)
 *   OK, I think it's recording.             → Priya Raman (0:03): OK, I think it's recording.
 *
 *   [00:00:16] Kevin Tran: Okay.            (a timestamp before the label: dropped, see below)
 *   Kevin Tran [00:43] Mm-hmm. So, the fix  → Kevin Tran (00:43): So, the fix
 *   10:18:22 From  Maya Chen  to  Everyone: (Zoom's saved chat: a header, the message indented)
 *   	+1                                     (dropped, see below)
 *
 * Then the turn rules read them: a turn that only acknowledges ("Yeah.", "Mm-hmm.", "+1") goes
 * with its time unless the turn before asked a question, and so do the acknowledgements that open
 * a turn ("Mm-hmm. Yeah. So, about that." → "So, about that."); the blank lines between turns go;
 * consecutive turns of one speaker join (turns.ts). A recorder's notices ("Priya Raman started
 * transcription", "Transcribed by https://otter.ai") go too. The times are values that only
 * aggressive may drop (retention.ts reads aggressive's values after this pass, as after the other
 * boilerplate rules); `safe` and `balanced` never run it.
 *
 * Only in text with TIMED_MIN_TURNS such turns of two speakers or more: one line "Total 4:30"
 * under a heading is no transcript.
 */

import { BACKCHANNEL_WORDS } from './phrases.ts';
import { applyBalanced, BACKCHANNEL_TURN_RE, EMPTY_TURN_RE } from './rules.ts';
import { escape } from './words.ts';

/** A start time as transcript tools print it: 0:03, 00:04, 1:02:33, 00:00:02.500. */
const TIME = String.raw`(?:\d{1,2}:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?`;
/** A speaker's name: capitalised words of any cased script ("Ana Lucía Ferreira", "Speaker 3"), particles allowed inside; a number in it is no time's hours. */
const NAME = String.raw`\p{Lu}[\p{L}\p{M}\d.'’-]*(?:[ \t]+(?:\p{Lu}[\p{L}\p{M}\d.'’-]*|\d{1,3}(?![\d:.,])|de|da|del|di|van|von|der|den|la|le|al|bin|ibn)){0,4}`;
/** "Name 0:03", "Name (00:03):", "Name | 00:03", "Name - [00:03]" alone on a line: the header of the text below it. */
const NAME_TIME_RE = new RegExp(String.raw`^(${NAME})[ \t]*(?:[|·•–-][ \t]*)?([[(]?)(${TIME})([\])]?)[ \t]*:?$`, 'u');
/** "0:03 Name", "[00:03] Name:" alone on a line. */
const TIME_NAME_RE = new RegExp(String.raw`^([[(]?)(${TIME})([\])]?)[ \t]+(?:[|·•–-][ \t]*)?(${NAME})[ \t]*:?$`, 'u');
/** "[00:00:16] Kevin Tran: Okay.", "00:16 - Kevin Tran: Okay.": the time before the label, the text after it. */
const TIME_LABEL_RE = new RegExp(String.raw`^([[(]?)(${TIME})([\])]?)[ \t]+(?:[|·•–-][ \t]*)?(${NAME}):[ \t]+(?=\S)`, 'u');
/** "Kevin Tran (00:43): text", "Kevin Tran [00:43] text": the time between the name and the text. */
const LABEL_TIME_RE = new RegExp(String.raw`^(${NAME})[ \t]*([[(])(${TIME})([\])]):?[ \t]+(?=\S)`, 'u');
/** Zoom's saved chat: "10:18:22 From  Maya Chen  to  Everyone:" (the message on the lines below, indented, or after the colon). */
const ZOOM_CHAT_RE = new RegExp(String.raw`^(${TIME})[ \t]+From[ \t]+(${NAME})[ \t]+to[ \t]+(Everyone|${NAME})(?:[ \t]*\((?:[Dd]irect [Mm]essage|[Pp]rivately)\))?[ \t]*:[ \t]*(.*)$`, 'u');
/** A recorder's notice: "Priya Raman started transcription", "Transcribed by https://otter.ai". */
const NOTICE_RE = new RegExp(String.raw`^(?:${NAME}[ \t]+(?:started|stopped)[ \t]+(?:transcription|recording|the recording)|Transcribed by[ \t]+\S+)[ \t]*\.?$`, 'u');
/** A chat reaction or a "+1": says nothing the conversation needs. */
const REACTION_RE = /^(?:\+1|[\p{Extended_Pictographic}\p{Emoji_Modifier}\u200d\ufe0f]{1,12}|Reacted to .{1,200} with \S{1,20}|Removed a \S{1,20} reaction from .{1,200})$/u;
/** An acknowledgement that opens a turn's text, with its sentence mark: "Mm-hmm. ", "Okay, okay! ". */
const ACK_OPENING_RE = new RegExp(String.raw`^(?:${BACKCHANNEL_WORDS.map(escape).join('|')})\b(?:[ \t]*,?[ \t]*(?:${BACKCHANNEL_WORDS.map(escape).join('|')})\b)*[ \t]*[.!]+[ \t]+(?=\S)`, 'iu');
/** A time somewhere in the line: the cheap test before the turn patterns. */
const TIME_HINT_RE = /\d:\d\d/;
const INDENTED_RE = /^[ \t]+\S/;
const FENCE_RE = /^[ \t]*(?:```|~~~)/;
/** The longest turn read by the rules of balanced for whether it says anything ("Thank you so much."). */
const SHORT_TURN_MAX_CHARS = 48;
/** Turns of this many at least make a transcript. */
const TIMED_MIN_TURNS = 4;
/** The longest header line read. */
const HEADER_MAX_CHARS = 120;

interface Turn {
  /** first and last input line of the turn */
  readonly from: number;
  readonly to: number;
  readonly name: string;
  readonly time: string;
  readonly text: string;
}

/**
 * `lines` with timed turns written as "Name (time): text" (see the module comment); `code` marks
 * lines of code blocks (1), which are never read. The same array when the text holds fewer than
 * TIMED_MIN_TURNS timed turns of two speakers.
 */
export function timedTurns(lines: readonly string[], code: Uint8Array): readonly string[] {
  const turns = findTurns(lines, code);
  if (turns.length < TIMED_MIN_TURNS || new Set(turns.map((t) => t.name)).size < 2) return lines;
  const out: string[] = [];
  let next = 0; // the next turn
  let asked = false; // the turn before asked a question
  let lastWasTurn = false;
  let blanks = 0;
  for (let i = 0; i < lines.length; i++) {
    const turn = turns[next];
    if (turn !== undefined && turn.from === i) {
      next++;
      i = turn.to;
      const said = withoutOpeningAcks(turn.text, asked);
      const acknowledges = said === '' || REACTION_RE.test(said) || saysNothing(said);
      if (!(acknowledges && !asked)) {
        if (!lastWasTurn) pushBlanks(out, blanks);
        out.push(`${turn.name} (${turn.time}): ${said}`);
      }
      blanks = 0;
      asked = said.trimEnd().endsWith('?');
      lastWasTurn = true;
      continue;
    }
    const line = lines[i]!;
    if (code[i] !== 1 && line.trim() === '') {
      blanks++;
      continue;
    }
    if (code[i] !== 1 && line.length <= HEADER_MAX_CHARS && NOTICE_RE.test(line.trim())) continue;
    pushBlanks(out, blanks);
    blanks = 0;
    lastWasTurn = false;
    out.push(line);
  }
  pushBlanks(out, blanks);
  return out;
}

/** The timed turns of `lines`, in order; each covers its header and text lines. */
function findTurns(lines: readonly string[], code: Uint8Array): Turn[] {
  const turns: Turn[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (code[i] === 1) continue;
    const line = lines[i]!;
    if (!line.includes(':') || !TIME_HINT_RE.test(line)) continue;
    const t = line.trim();
    let m: RegExpExecArray | null;
    if ((m = TIME_LABEL_RE.exec(t)) !== null && brackets(m[1]!, m[3]!)) {
      turns.push({ from: i, to: i, name: m[4]!, time: m[2]!, text: t.slice(m[0].length) });
      continue;
    }
    if ((m = LABEL_TIME_RE.exec(t)) !== null && brackets(m[2]!, m[4]!)) {
      turns.push({ from: i, to: i, name: m[1]!, time: m[3]!, text: t.slice(m[0].length) });
      continue;
    }
    if (t.length > HEADER_MAX_CHARS) continue;
    let name: string | undefined;
    let time: string | undefined;
    let first = '';
    let indented = false;
    if ((m = NAME_TIME_RE.exec(t)) !== null && brackets(m[2]!, m[4]!)) [name, time] = [m[1]!, m[3]!];
    else if ((m = TIME_NAME_RE.exec(t)) !== null && brackets(m[1]!, m[3]!)) [name, time] = [m[4]!, m[2]!];
    else if ((m = ZOOM_CHAT_RE.exec(t)) !== null) {
      [name, time, first] = [m[3] === 'Everyone' ? m[2]! : `${m[2]!} to ${m[3]!}`, m[1]!, m[4]!.trim()];
      indented = true;
    }
    if (name === undefined || time === undefined) continue;
    // The text: the lines below up to a blank line or the next header; Zoom's chat: its indented
    // lines (which codeLines reads as indented code), over blank lines inside a message.
    let text = first;
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      if (indented) {
        if (l.trim() === '') {
          let k = j + 1;
          while (k < lines.length && lines[k]!.trim() === '') k++;
          if (k < lines.length && INDENTED_RE.test(lines[k]!) && !FENCE_RE.test(lines[k]!)) continue;
          break;
        }
        if (!INDENTED_RE.test(l) || FENCE_RE.test(l)) break;
      } else if (code[j] === 1 || l.trim() === '' || (l.includes(':') && isHeader(l.trim()))) break;
      text += (text === '' ? '' : ' ') + l.trim();
    }
    if (text === '') continue; // a name and a time over nothing: a table row, a schedule line
    turns.push({ from: i, to: j - 1, name, time, text });
    i = j - 1;
  }
  return turns;
}

/** A line that opens a timed turn of its own. */
function isHeader(t: string): boolean {
  let m: RegExpExecArray | null;
  return (
    ((m = TIME_LABEL_RE.exec(t)) !== null && brackets(m[1]!, m[3]!)) ||
    ((m = LABEL_TIME_RE.exec(t)) !== null && brackets(m[2]!, m[4]!)) ||
    (t.length <= HEADER_MAX_CHARS && (((m = NAME_TIME_RE.exec(t)) !== null && brackets(m[2]!, m[4]!)) || ((m = TIME_NAME_RE.exec(t)) !== null && brackets(m[1]!, m[3]!)) || ZOOM_CHAT_RE.test(t)))
  );
}

/**
 * The turn only acknowledges ("Yeah, okay."), or holds nothing the rules of balanced leave
 * ("Thank you.", "{laughs}", "Um."): such a turn would be dropped as empty later, and its time
 * with it, so it goes here, where the time may go (retention.ts reads values after this pass).
 */
function saysNothing(said: string): boolean {
  if (BACKCHANNEL_TURN_RE.test(`S: ${said}`)) return true;
  if (said.length > SHORT_TURN_MAX_CHARS) return false;
  const left = applyBalanced(`S: ${said}`, false, true, false).trim();
  return EMPTY_TURN_RE.test(left) || BACKCHANNEL_TURN_RE.test(left);
}

/** An opening and a closing bracket that pair up ("[…]", "(…)", or none). */
const brackets = (open: string, close: string): boolean => (open === '' ? close === '' : open === '[' ? close === ']' : close === ')');

/** The turn's text without the acknowledgements that open it, unless the turn before asked (then "Yeah." answers). */
function withoutOpeningAcks(text: string, asked: boolean): string {
  if (asked) return text;
  let s = text;
  for (let m = ACK_OPENING_RE.exec(s); m !== null; m = ACK_OPENING_RE.exec(s)) s = s.slice(m[0].length);
  return s;
}

function pushBlanks(out: string[], blanks: number): void {
  for (let k = 0; k < blanks; k++) out.push('');
}
