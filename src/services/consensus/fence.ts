/**
 * Fence sequences: the source of fencing tokens (per tenant, shared by all its resources) and of
 * decision epochs. A sequence only ever goes up, so a token is never reused, also after its
 * resource was released, expired and swept from memory.
 *
 * A new sequence starts at (wall-clock ms) x 1000. After a restart, the in-memory state is gone but
 * the next tokens still exceed every token handed out before, as long as the previous run issued
 * fewer than 1000 tokens per millisecond on average (the arbiter does ~20 per ms at full load)
 * and the host clock did not step back across the restart. Seeds stay below 2^53 until the year
 * 2255, so tokens are exact JSON numbers.
 */
export class FenceSequence {
  #last: number;

  constructor(wallMs: number) {
    if (!Number.isFinite(wallMs) || wallMs < 0) throw new RangeError('FenceSequence needs a wall-clock time in ms');
    this.#last = Math.floor(wallMs) * 1000;
  }

  /** The next value, strictly greater than every value returned before. */
  next(): number {
    this.#last += 1;
    return this.#last;
  }

  /** The last value handed out (the seed when none was). */
  get last(): number {
    return this.#last;
  }
}
