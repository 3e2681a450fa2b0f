/** API-09 structure pass (structure.ts): a one-line Python repr loses the space repr writes after each "," and ":". */

/** A bare token of a Python literal: None, True, False or a number as repr writes it. */
const PY_TOKEN_RE = /^(?:None|True|False|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)$/;

/**
 * The Python literal (a dict, list, tuple or set of strings, numbers, None, True, False, as
 * repr() prints it) that opens at `col` and holds a quoted string: its text without the one space
 * repr writes after each "," and ":", and the index after its closing bracket; undefined for
 * anything else: whitespace elsewhere outside strings, two spaces, spaces after some separators
 * but not others, an unknown word ("[it's fine]", "[a, b]"), a bracket left open on the line.
 * Only those spaces go, so putting them back gives the repr again; the compact form is read as a
 * literal too (the pass is a fixed point).
 */
export function pythonLiteral(line: string, col: number): { compact: string; end: number } | undefined {
  const closers: number[] = [];
  let spaced = 0; // 1: separators carry repr's space, 2: none do
  let strings = 0;
  let out = '';
  let from = col;
  for (let k = col; k < line.length; k++) {
    const c = line.charCodeAt(k);
    if (c === 39 || c === 34) {
      let j = k + 1;
      while (j < line.length && line.charCodeAt(j) !== c) j += line.charCodeAt(j) === 92 ? 2 : 1;
      if (j >= line.length) return undefined;
      strings++;
      k = j;
    } else if (c === 123 || c === 91 || c === 40) closers.push(c === 40 ? 41 : c + 2);
    else if (c === 125 || c === 93 || c === 41) {
      if (closers.pop() !== c) return undefined;
      if (closers.length === 0) {
        if (strings === 0 || spaced === 0) return undefined;
        return { compact: out + line.slice(from, k + 1), end: k + 1 };
      }
    } else if (c === 44 || c === 58) {
      if (c === 58 && closers[closers.length - 1] !== 125) return undefined;
      const next = line.charCodeAt(k + 1);
      if (next === 32) {
        if (spaced === 2 || line.charCodeAt(k + 2) === 32) return undefined;
        spaced = 1;
        out += line.slice(from, k + 1);
        from = k + 2;
        k++;
      } else if (!(c === 44 && next === 41)) {
        // "(1,)": a one-tuple's comma has no space after it in either form.
        if (spaced === 1) return undefined;
        spaced = 2;
      }
    } else {
      let j = k;
      while (j < line.length && /[\w.+-]/.test(line[j]!)) j++;
      if (j === k || !PY_TOKEN_RE.test(line.slice(k, j))) return undefined;
      k = j - 1;
    }
  }
  return undefined;
}
