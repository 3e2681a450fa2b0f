/**
 * The "seen before?" sets of API-09's de-duplication (core.ts). Most lines and paragraphs of a
 * prompt are new strings that are looked up once: a Set would hash every character of each.
 * Here a string is first sorted by its length (a number key), and compared with `===` only to the
 * earlier strings of the same length, which usually differ within a few characters. A length
 * that more than BUCKET_MAX strings share moves to an ordinary Set, so a prompt of many lines of
 * one length costs no quadratic comparison.
 */
const BUCKET_MAX = 16;

export class SeenSet {
  readonly #buckets = new Map<number, string[]>();
  /** The strings of every length whose bucket overflowed. */
  readonly #large = new Set<string>();

  /** True when `s` was added before. */
  has(s: string): boolean {
    const bucket = this.#buckets.get(s.length);
    if (bucket === undefined) return false;
    if (bucket.length > BUCKET_MAX) return this.#large.has(s);
    for (let i = 0; i < bucket.length; i++) if (bucket[i] === s) return true;
    return false;
  }

  /** Adds `s`; false when it was there already. */
  add(s: string): boolean {
    const bucket = this.#buckets.get(s.length);
    if (bucket === undefined) {
      this.#buckets.set(s.length, [s]);
      return true;
    }
    if (bucket.length > BUCKET_MAX) {
      if (this.#large.has(s)) return false;
      this.#large.add(s);
      return true;
    }
    for (let i = 0; i < bucket.length; i++) if (bucket[i] === s) return false;
    bucket.push(s);
    if (bucket.length > BUCKET_MAX) for (const t of bucket) this.#large.add(t);
    return true;
  }
}
