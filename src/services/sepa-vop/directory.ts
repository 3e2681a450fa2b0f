/**
 * The payee directory: who holds which account. Loaded once at boot from a UTF-8 CSV file
 * (RFC 4180 quoting) with the header `iban,name` and optional columns `bic` and `closed`
 * (`true`/`false`, also `1`/`0`/`yes`/`no`, empty = false); IBANs in any spacing. Every row is
 * checked: a malformed one stops the load with its line number (never its content: the file
 * holds personal data).
 */
import { readFileSync } from 'node:fs';
import { checkBic } from './bic.ts';
import { validateIban } from './iban.ts';
import { prepareName, type PreparedName } from './name-match.ts';

export interface Payee {
  readonly iban: string;
  readonly name: PreparedName;
  /** Normalised BIC, when the directory gives one. */
  readonly bic: string | null;
  readonly closed: boolean;
}

export type PayeeDirectory = ReadonlyMap<string, Payee>;

/** The synthetic directory shipped with the service (used when PAYEE_DIRECTORY is unset). */
export const DEFAULT_DIRECTORY_PATH = new URL('./data/payees.csv', import.meta.url);

/** Longest name accepted in the directory (the request bound is 140 as well). */
const MAX_NAME_LENGTH = 140;
/** How many malformed rows one error message lists before it stops counting. */
const MAX_REPORTED = 10;

export class DirectoryError extends Error {
  constructor(
    message: string,
    readonly lines: readonly number[],
  ) {
    super(message);
    this.name = 'DirectoryError';
  }
}

/**
 * Splits CSV text into records, each with the 1-based line it starts on. Quoted fields may hold
 * commas, doubled quotes and line breaks.
 */
export function parseCsv(text: string): { line: number; fields: string[]; error?: string }[] {
  const records: { line: number; fields: string[]; error?: string }[] = [];
  let line = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < text.length) {
    const start = line;
    const fields: string[] = [];
    let error: string | undefined;
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        let closed = false;
        while (i < text.length) {
          const ch = text[i]!;
          if (ch === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            closed = true;
            break;
          }
          if (ch === '\n') line++;
          field += ch;
          i++;
        }
        if (!closed) error = 'unterminated quoted field';
        else if (i < text.length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') error = 'text after a closing quote';
        while (i < text.length && text[i] !== ',' && text[i] !== '\n') i++;
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\n') field += text[i++];
        if (field.endsWith('\r')) field = field.slice(0, -1);
        if (field.includes('"')) error = 'quote inside an unquoted field';
      }
      fields.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === '\n') {
      i++;
      line++;
    }
    const blank = fields.length === 1 && fields[0]!.trim() === '';
    if (!blank) records.push(error === undefined ? { line: start, fields } : { line: start, fields, error });
  }
  return records;
}

const TRUE_VALUES = new Set(['true', '1', 'yes', 'y']);
const FALSE_VALUES = new Set(['false', '0', 'no', 'n', '']);

/**
 * Builds the directory from CSV text. Throws DirectoryError listing every malformed row
 * (line numbers and the reason, up to MAX_REPORTED) so one run fixes the file.
 * @example loadDirectoryText('iban,name\nDE89 3704 0044 0532 0130 00,Max Mustermann\n').size // 1
 */
export function loadDirectoryText(text: string, source = 'payee directory'): PayeeDirectory {
  const records = parseCsv(text);
  const header = records.shift();
  if (header === undefined) throw new DirectoryError(`${source}: empty file (expected the header iban,name)`, [1]);
  const columns = header.fields.map((h) => h.trim().toLowerCase());
  const col = (name: string): number => columns.indexOf(name);
  const ibanCol = col('iban');
  const nameCol = col('name');
  const bicCol = col('bic');
  const closedCol = col('closed');
  if (ibanCol < 0 || nameCol < 0 || header.error !== undefined) {
    throw new DirectoryError(`${source}: line ${header.line}: the header must name the columns iban and name (optional: bic, closed)`, [header.line]);
  }

  const problems: { line: number; reason: string }[] = [];
  const map = new Map<string, Payee>();
  for (const rec of records) {
    const reason = rowProblem(rec, columns.length, ibanCol, nameCol, bicCol, closedCol, map);
    if (typeof reason === 'string') problems.push({ line: rec.line, reason });
    else map.set(reason.iban, reason);
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_REPORTED).map((p) => `line ${p.line}: ${p.reason}`);
    const more = problems.length > MAX_REPORTED ? `; and ${problems.length - MAX_REPORTED} more` : '';
    throw new DirectoryError(`${source}: ${problems.length} malformed row(s): ${shown.join('; ')}${more}`, problems.map((p) => p.line));
  }
  return map;
}

function rowProblem(
  rec: { line: number; fields: string[]; error?: string },
  width: number,
  ibanCol: number,
  nameCol: number,
  bicCol: number,
  closedCol: number,
  seen: ReadonlyMap<string, Payee>,
): string | Payee {
  if (rec.error !== undefined) return rec.error;
  if (rec.fields.length !== width) return `expected ${width} fields, found ${rec.fields.length}`;
  const iban = validateIban(rec.fields[ibanCol]!);
  if (!iban.valid) return `invalid IBAN (${iban.errors.join(', ')})`;
  if (seen.has(iban.iban)) return 'duplicate IBAN';
  const name = rec.fields[nameCol]!.trim();
  if (name === '') return 'empty name';
  if (name.length > MAX_NAME_LENGTH) return `name longer than ${MAX_NAME_LENGTH} characters`;
  const prepared = prepareName(name);
  if (prepared.tokens.length === 0) return 'name has no letters or digits';
  let bic: string | null = null;
  const rawBic = bicCol >= 0 ? rec.fields[bicCol]!.trim() : '';
  if (rawBic !== '') {
    const check = checkBic(rawBic, iban.country);
    if (!check.valid) return `invalid BIC (${check.error})`;
    bic = check.bic;
  }
  const rawClosed = closedCol >= 0 ? rec.fields[closedCol]!.trim().toLowerCase() : '';
  if (!TRUE_VALUES.has(rawClosed) && !FALSE_VALUES.has(rawClosed)) return 'closed must be true or false';
  return { iban: iban.iban, name: prepared, bic, closed: TRUE_VALUES.has(rawClosed) };
}

/** Reads the directory file (PAYEE_DIRECTORY, or the shipped synthetic one). */
export function loadDirectoryFile(path: string | URL): PayeeDirectory {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new DirectoryError(`payee directory ${String(path)}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, []);
  }
  return loadDirectoryText(text, `payee directory ${String(path)}`);
}
