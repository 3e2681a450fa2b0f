/**
 * API-09, aggressive: subtitle transcripts (WebVTT as Zoom and Teams export them, SRT) as turns.
 *
 *   WEBVTT                                  (dropped)
 *   12                                      (the cue's number or identifier: dropped)
 *   00:01:02.500 --> 00:01:09.250           (start kept to the second, end dropped)
 *   Rachel Kim: So the budget is            → Rachel Kim: [00:01:02] So the budget is fixed.
 *   fixed.
 *
 * A cue's lines join on one line, the blank lines between cues go, and the speaker's name leads
 * the line as a turn label (a Teams `<v Name>` span is one already: structure.ts), so the turn
 * rules read it (consecutive turns of one speaker join in mergeTurns). Cue numbers and end times
 * are values that only aggressive may drop (retention.ts reads aggressive's values after this
 * pass, as after the other boilerplate rules).
 */

import { BACKCHANNEL_TURN_RE } from './rules.ts';

/** A cue's timing line: start --> end, with optional cue settings after it. */
const TIMING_RE = /^[ \t]*((?:\d{1,2}:)?\d{1,2}:\d{2})[.,]\d{1,3}[ \t]+-->[ \t]+(?:\d{1,2}:)?\d{1,2}:\d{2}[.,]\d{1,3}(?:[ \t][^\n]*)?$/;
/** A transcript is read as subtitles from this many timing lines on. */
const MIN_CUES = 3;
const CUE_NUMBER_RE = /^[ \t]*\d{1,6}[ \t]*$/;
/** A cue identifier: one word of up to 80 characters. */
const CUE_ID_RE = /^[ \t]*[^\s<>]{1,80}[ \t]*$/;
const WEBVTT_RE = /^WEBVTT\b/;
/**
 * The tags of cue text left after the structure pass (structure.ts turned voice spans, `<v Ann>`,
 * into "Ann: " labels already): classes, styles, languages.
 */
const CUE_TAG_RE = /<\/?(?:v|c|i|b|u|lang|ruby|rt)(?:[.\s][^>\n]*)?>/g;
/** A speaker's name that opens a cue's text ("Rachel Kim: So …"). */
const SPEAKER_RE = /^([^\s:<>[\]][^:\n<>[\]]{0,40}):[ \t]+(?=\S)/;

/**
 * `lines` with subtitle cues turned into turns (see the module comment); `code` marks lines of code
 * blocks (1), which are never read. The same array when the text holds fewer than MIN_CUES cues.
 */
export function cuesAsTurns(lines: readonly string[], code: Uint8Array): readonly string[] {
  let cues = 0;
  for (let i = 0; i < lines.length && cues < MIN_CUES; i++) if (code[i] !== 1 && lines[i]!.includes('-->') && TIMING_RE.test(lines[i]!)) cues++;
  if (cues < MIN_CUES) return lines;
  const out: string[] = [];
  /** The last line written is a cue's turn: blank lines after it wait for what comes next. */
  let inCues = false;
  let blanks = 0;
  /** The cue before asked a question. */
  let asked = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (code[i] === 1) {
      flushBlanks(out, blanks);
      blanks = 0;
      inCues = false;
      out.push(line);
      continue;
    }
    const timing = line.includes('-->') ? TIMING_RE.exec(line) : null;
    if (timing === null) {
      if (line.trim() === '') {
        blanks++;
        continue;
      }
      // The file's header; a cue's identifier, on the line right above its timing (SRT numbers
      // its cues, Teams names them "8c1d…/12-0"); a number with blank lines before the timing.
      if (WEBVTT_RE.test(line)) continue;
      if (i + 1 < lines.length && code[i + 1] !== 1 && CUE_ID_RE.test(line) && lines[i + 1]!.includes('-->') && TIMING_RE.test(lines[i + 1]!)) continue;
      if (CUE_NUMBER_RE.test(line) && nextIsTiming(lines, code, i + 1)) continue;
      flushBlanks(out, blanks);
      blanks = 0;
      inCues = false;
      out.push(line);
      continue;
    }
    // The cue's text: its lines up to a blank line or the next timing line.
    let text = '';
    let j = i + 1;
    for (; j < lines.length && code[j] !== 1 && lines[j]!.trim() !== '' && !(lines[j]!.includes('-->') && TIMING_RE.test(lines[j]!)); j++) {
      text += (text === '' ? '' : ' ') + lines[j]!.trim();
    }
    if (!inCues) flushBlanks(out, blanks);
    blanks = 0;
    const said = turn(timing[1]!, text);
    // A cue that only acknowledges ("Yeah.", "Mm-hmm.") goes with its time, unless it answers a question.
    if (said === null || !(BACKCHANNEL_TURN_RE.test(said.plain) && !asked)) out.push(said === null ? `[${timing[1]!}]` : said.line);
    asked = said !== null && said.plain.trimEnd().endsWith('?');
    inCues = true;
    i = j - 1;
  }
  flushBlanks(out, blanks);
  return out;
}

/** One cue as a turn: `line` "Name: [start] text" (or "[start] text" without a speaker), `plain` "Name: text"; null when it says nothing. */
function turn(start: string, text: string): { line: string; plain: string } | null {
  let speaker = '';
  let rest = text.replace(CUE_TAG_RE, '').trim();
  const named = SPEAKER_RE.exec(rest);
  if (named !== null) {
    speaker = named[1]!.trim();
    rest = rest.slice(named[0].length);
  }
  if (rest === '') return null;
  const stamp = `[${start}]`;
  if (speaker !== '') return { line: `${speaker}: ${stamp} ${rest}`, plain: `${speaker}: ${rest}` };
  return { line: `${stamp} ${rest}`, plain: rest };
}

function nextIsTiming(lines: readonly string[], code: Uint8Array, from: number): boolean {
  let k = from;
  while (k < lines.length && code[k] !== 1 && lines[k]!.trim() === '') k++;
  return k < lines.length && code[k] !== 1 && lines[k]!.includes('-->') && TIMING_RE.test(lines[k]!);
}

function flushBlanks(out: string[], blanks: number): void {
  for (let k = 0; k < blanks; k++) out.push('');
}
