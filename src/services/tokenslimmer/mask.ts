/**
 * Masking for API-09 (core.ts): what must stay byte for byte is replaced by placeholders before
 * the rules run, and restored after. Blocks (code, JSON, indented code, table rows, lines with
 * reserved characters) are masked as whole lines here; inline spans by patterns.ts#maskProtected.
 */
import { oneByteCopy } from '../../tokenizer/index.ts';
import { CODE_BLOCK_RE, INDENTED_CODE_RE, optionReader, TABLE_ROW_RE } from './patterns.ts';
import { INVISIBLE_RE, LABEL_LINE_MARK, LINE_MARK, SPOKEN_TURN_RE } from './rules.ts';

/**
 * Placeholders are built from C0 control characters, \x0E + the index in base 16 written with
 * \x10-\x1F + \x0F, so a Latin-1 prompt stays a one-byte string in V8: regular expressions (and
 * the tokenizer afterwards) run about twice as fast on one-byte strings as on two-byte ones.
 * Lines of the input that hold any reserved control character (\x01-\x04, \x0E-\x1F) are kept
 * whole, so an input can never forge a placeholder or a line mark.
 */
const RESERVED_RE = /[\x01-\x04\x0E-\x1F]/;
const PLACEHOLDER_RE = /\x0E([\x10-\x1F]+)\x0F/g;

function placeholder(i: number): string {
  let digits = '';
  do {
    digits = String.fromCharCode(0x10 + (i & 15)) + digits;
    i >>>= 4;
  } while (i > 0);
  return `\x0E${digits}\x0F`;
}

/** Interning masker: one placeholder per distinct protected text. Lives for one pass. */
export class Masker {
  readonly #spans: string[] = [];
  readonly #ids = new Map<string, string>();
  /** Placeholders of answer-option lines: a paragraph holding one is never dropped as a repeat. */
  readonly options = new Set<string>();

  mask = (span: string): string => this.maskRaw(this.restore(span)); // a span may enclose an earlier placeholder

  /** Masks `full` as it is: for input lines that hold reserved characters (a forged placeholder stays text). */
  maskRaw(full: string): string {
    let ph = this.#ids.get(full);
    if (ph === undefined) {
      ph = placeholder(this.#spans.length);
      this.#spans.push(full);
      this.#ids.set(full, ph);
    }
    return ph;
  }

  /** `text` with its placeholders replaced by their spans (PLACEHOLDER_RE, read with indexOf). */
  restore(text: string): string {
    if (this.#spans.length === 0) return text;
    let at = text.indexOf('\x0E');
    if (at === -1) return text;
    let out = '';
    let copied = 0;
    for (; at !== -1; at = text.indexOf('\x0E', at + 1)) {
      let i = 0;
      let k = at + 1;
      for (let c = text.charCodeAt(k); c >= 0x10 && c <= 0x1f; c = text.charCodeAt(++k)) i = i * 16 + c - 0x10;
      if (k === at + 1 || text.charCodeAt(k) !== 0x0f) continue; // not a placeholder
      const span = this.#spans[i];
      if (span === undefined) continue;
      out += text.slice(copied, at) + span;
      copied = k + 1;
      at = k;
    }
    return copied === 0 ? text : out + text.slice(copied);
  }
}

/** A Latin-1-only string rebuilt as a one-byte string (replace() chains leave two-byte ones). */
export function oneByte(s: string): string {
  return /[^\x00-\xff]/.test(s) ? s : oneByteCopy(s);
}


/**
 * Masks what is kept whole: code blocks, JSON documents (minified), indented code, table rows,
 * and lines that already hold private-use characters. Every other non-blank line gets a line
 * mark so the rules can tell a line they emptied from a blank line of the input.
 */
export function maskBlocks(text: string, masker: Masker): string {
  // Most prompts hold no code block: three includes() (memchr speed) spare the multi-line scan.
  if (!text.includes('``') && !text.includes('~~~') && !text.includes('<')) return maskLines(text, masker);
  let out = '';
  let last = 0;
  CODE_BLOCK_RE.lastIndex = 0;
  for (const m of text.matchAll(CODE_BLOCK_RE)) {
    out += maskLines(text.slice(last, m.index), masker);
    let block = m[0];
    if (block.endsWith('\n')) block = block.slice(0, -1);
    out += masker.maskRaw(block);
    last = m.index + block.length;
  }
  return out + maskLines(text.slice(last), masker);
}

function maskLines(chunk: string, masker: Masker): string {
  if (chunk === '') return chunk;
  const lines = chunk.replace(INVISIBLE_RE, '').split('\n');
  const isOption = optionReader();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // Answer options stay verbatim (every level), like table rows.
    if (isOption(line)) {
      const ph = masker.maskRaw(line);
      masker.options.add(ph);
      lines[i] = LABEL_LINE_MARK + ph;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const first = trimmed.charCodeAt(0);
    if (first === 123 /* { */ || first === 91 /* [ */) {
      const json = readJson(lines, i);
      if (json) {
        lines[i] = LABEL_LINE_MARK + masker.maskRaw(json.minified);
        lines.splice(i + 1, json.lastLine - i);
        continue;
      }
    }
    if (INDENTED_CODE_RE.test(line) || TABLE_ROW_RE.test(line) || RESERVED_RE.test(line)) {
      lines[i] = LABEL_LINE_MARK + masker.maskRaw(line);
      continue;
    }
    // The mark goes after the indentation: spaces that a removal leaves after it are dropped later.
    // Indentation is spaces and tabs only, as dedupeAndJoin reads it: a line that opens with a
    // no-break or other Unicode space keeps it after the mark (else the mark would leak).
    let indent = 0;
    while (line.charCodeAt(indent) === 32 || line.charCodeAt(indent) === 9) indent++;
    // LINE_MARK only on a speaker turn that says something: only such a line may be dropped as a turn
    // left empty (or, in aggressive, as a mere acknowledgement). A line that merely comes to look
    // like a label after a removal ("Thanks! go A: -" → "Go A: -") is never dropped.
    lines[i] = line.slice(0, indent) + (SPOKEN_TURN_RE.test(trimmed) ? LINE_MARK : LABEL_LINE_MARK) + line.slice(indent);
  }
  return lines.join('\n');
}

/**
 * A JSON object/array that starts on line `i` and ends at the end of some line: returned
 * whitespace-minified (strings and numbers byte for byte, so "1.0" stays "1.0").
 */
const JSON_BARE_CHAR = /[{}[\],:"0-9.+\-eEtrufalsn]/;

function readJson(lines: readonly string[], i: number): { minified: string; lastLine: number } | undefined {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let out = '';
  for (let j = i; j < lines.length && j < i + 5000; j++) {
    const line = lines[j]!;
    for (let k = 0; k < line.length; k++) {
      const c = line[k]!;
      if (inString) {
        out += c;
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === ' ' || c === '\t') continue;
      // Outside strings JSON has only punctuation, numbers and true/false/null: prose fails at once,
      // so a "[" that opens a line of text costs a few characters, not a scan of the rest.
      if (!JSON_BARE_CHAR.test(c)) return undefined;
      out += c;
      if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) {
          if (line.slice(k + 1).trim() !== '' || out.length < 2) return undefined;
          try {
            JSON.parse(out);
          } catch {
            return undefined;
          }
          return { minified: out, lastLine: j };
        }
      }
    }
    if (inString) return undefined; // JSON strings never span lines
  }
  return undefined;
}

