/**
 * Literal pre-filter for the RE2 families: every pattern lists lower-case literals one of which
 * each of its matches contains. One RE2.Set pass over the text says which literals occur, so a
 * typical prompt runs only the few patterns that can match (instead of ~30 full scans).
 */
import RE2 from 're2';

export class NeedleIndex {
  readonly #needles: readonly string[];
  readonly #set: InstanceType<typeof RE2.Set>;

  constructor(needles: Iterable<string>) {
    this.#needles = [...new Set(needles)];
    if (this.#needles.length === 0) throw new RangeError('NeedleIndex needs at least one needle');
    const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.#set = new RE2.Set(this.#needles.map(escape), 'i');
  }

  /** The needles present in `text` (case-insensitive), as a membership test. */
  present(text: string): (needle: string) => boolean {
    const hits = new Set<string>();
    for (const i of this.#set.match(text)) hits.add(this.#needles[i]!);
    return (needle) => hits.has(needle);
  }
}
