/** mulberry32: a tiny seeded PRNG, so a run's random choices are reproducible from its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Seeded text: pieces of `alphabet` picked by an LCG until `length` characters (reproducible per seed). */
export function seededText(seed: number, length: number, alphabet: readonly string[]): string {
  let s = seed >>> 0;
  let out = '';
  while (out.length < length) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out += alphabet[s % alphabet.length];
  }
  return out;
}
