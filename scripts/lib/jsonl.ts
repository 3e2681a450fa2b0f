/**
 * JSON Lines for the eval scripts: every non-blank line that parses to a JSON object is one
 * record; a line that does not parse, or parses to something else, is counted under its reason
 * and passed over (the caller's `skip` tallies reasons), so a script never stops on a record it
 * cannot use.
 */

/** The JSON objects of a JSON Lines text, each with its 1-based line number. */
export function* jsonObjects(text: string, skip: (why: string) => void): Generator<{ record: Record<string, unknown>; line: number }> {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skip('line is not JSON');
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      skip('record is not a JSON object');
      continue;
    }
    yield { record: value as Record<string, unknown>, line: i + 1 };
  }
}
