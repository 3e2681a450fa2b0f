/** Consecutive turns of one speaker in a transcript, joined into one turn (`balanced`). */

/** A speaker turn's label: one to four capitalised words (any script with case: "José Pérez") before a colon and a space. */
const TURN_LABEL_RE = /^(\p{Lu}[\p{L}\p{M}\d_.'’-]*(?:[ \t]+[\p{Lu}\d][\p{L}\p{M}\d_.'’-]*){0,3}):[ \t]+(?=\S)/u;
/** Labels of prompt structure, not speakers: lines under them are never joined. */
const STRUCTURE_LABELS: ReadonlySet<string> = new Set([
  'q', 'a', 'question', 'answer', 'input', 'output', 'options', 'option', 'example', 'note', 'notes', 'context', 'title',
  'passage', 'document', 'source', 'text', 'summary', 'explanation', 'label', 'sentence', 'premise', 'hypothesis',
  'claim', 'task', 'instruction', 'instructions', 'response', 'system', 'query', 'result', 'observation', 'thought',
  'action', 'step', 'hint', 'solution', 'choices', 'rationale', 'reasoning', 'final answer', 'from', 'to', 'subject',
  'sent', 'date', 'cc', 'bcc', 'warning', 'error', 'info', 'debug', 'tip', 'important',
]);
/** Only a label that ends with a digit can be "Step 2" (most speaker labels skip the regex). */
const endsWithDigit = (s: string): boolean => s.charCodeAt(s.length - 1) >= 48 && s.charCodeAt(s.length - 1) <= 57;
/** A transcript: this many labelled turns at least, most non-blank lines being turns. */
const TRANSCRIPT_MIN_TURNS = 10;

/**
 * Consecutive turns of one speaker in a transcript become one turn ("Ann: We start.\nAnn: Then
 * lunch." → "Ann: We start. Then lunch."): the label said again and the line break carry nothing
 * once the turn between them is gone. Only in text where 10+ lines, and over half of the non-blank
 * lines, are turns of 2+ speakers; never under a label of prompt structure (Q:, Answer:, Step 1:).
 */
export function mergeTurns(text: string): string {
  if (!text.includes(': ')) return text;
  const lines = text.split('\n');
  const labels: (string | undefined)[] = new Array(lines.length);
  const speakers = new Set<string>();
  let turns = 0;
  let nonBlank = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    nonBlank++;
    const m = TURN_LABEL_RE.exec(line);
    if (m === null) continue;
    const key = m[1]!.toLowerCase();
    if (STRUCTURE_LABELS.has(key) || (endsWithDigit(key) && STRUCTURE_LABELS.has(key.replace(/[ \t]+\d+$/, '')))) return text;
    labels[i] = m[1]!;
    speakers.add(m[1]!);
    turns++;
  }
  if (turns < TRANSCRIPT_MIN_TURNS || turns * 2 <= nonBlank || speakers.size < 2) return text;
  const out: string[] = [];
  let last: string | undefined; // the label of the line just written
  // Whether the line just written ends with ":", read from what was added last: asking the line
  // itself (endsWith) flattens it as it grows, O(n²) over one speaker's many turns.
  let colon = false;
  for (let i = 0; i < lines.length; i++) {
    const label = labels[i];
    const line = lines[i]!;
    if (label !== undefined && label === last && !colon) {
      const m = TURN_LABEL_RE.exec(line)!;
      out[out.length - 1] += ' ' + line.slice(m[0].length);
    } else {
      out.push(line);
      last = label;
    }
    colon = line.endsWith(':');
  }
  return out.length === lines.length ? text : out.join('\n');
}
