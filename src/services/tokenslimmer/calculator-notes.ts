/** Calculator notes of GSM8K-style worked steps (boilerplate.ts): `48/2 = <<48/2=24>>24` → `48/2 = 24`. */

/** `<<expression=result>>` as GSM8K-style worked solutions carry it (bounded: linear time). */
const CALCULATOR_NOTE_RE = /<<([^<>=\n]{1,120})=([-+]?\d[\d,]*(?:\.\d+)?)>>/g;
const NOTE_NUMBER_RE = /\d+(?:\.\d+)?/g;

/**
 * Drops the calculator annotations of a line whose text repeats them: the result follows the
 * annotation ("<<48/2=24>>24", not a digit more) and every number of the expression occurs earlier
 * on the line ("48/2 = "). Anything else (a note whose numbers are said nowhere before it) stays.
 */
export function dropCalculatorNotes(line: string): string {
  return line.replace(CALCULATOR_NOTE_RE, (m, expression: string, result: string, offset: number) => {
    const after = offset + m.length;
    if (!line.startsWith(result, after)) return m;
    const c = line.charCodeAt(after + result.length);
    if ((c >= 48 && c <= 57) || ((c === 46 || c === 44) && isDigitAt(line, after + result.length + 1))) return m;
    const before = line.slice(0, offset);
    for (const [number] of expression.matchAll(NOTE_NUMBER_RE)) if (!holdsNumber(before, number)) return m;
    return '';
  });
}

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** True when `number` occurs in `text` as a whole number (no digit or decimal part around it). */
function holdsNumber(text: string, number: string): boolean {
  for (let at = text.indexOf(number); at !== -1; at = text.indexOf(number, at + 1)) {
    const end = at + number.length;
    if (at > 0 && (isDigitAt(text, at - 1) || (text.charCodeAt(at - 1) === 46 && isDigitAt(text, at - 2)))) continue;
    if (isDigitAt(text, end) || (text.charCodeAt(end) === 46 && isDigitAt(text, end + 1))) continue;
    return true;
  }
  return false;
}
