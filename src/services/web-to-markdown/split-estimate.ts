/**
 * The HTML token estimate (token-estimate.ts), shared between the event loop and the worker.
 *
 * The estimate reads only the raw page, not the extraction, yet it is a third of the extraction's
 * CPU time. While the worker extracts, the event loop is mostly idle (one request in flight), so
 * the page is cut into chunks at piece boundaries (pieceCuts) that both threads claim from one
 * counter in a SharedArrayBuffer: the event loop scans one chunk per loop turn while it waits for
 * the worker, and the worker, once its extraction is done, scans whatever is left. Idle, the event
 * loop has done them all by then and the request takes the extraction's time instead of the sum;
 * busy (many requests in flight, or many workers per event loop), it claims few and the workers
 * do the rest, so no thread waits for another. The histograms of the two sides add up to the one a
 * single pass gives, so the estimate is the same number either way.
 *
 * Shared buffer, 32-bit words:
 *
 *   [0]                      next chunk to claim (Atomics.add)
 *   [1]                      number of chunks, n
 *   [2 .. n+2]               the n + 1 cut offsets: chunk k is text[cut k, cut k+1)
 *   [n+3 .. n+3+SLOTS)       the worker's histogram, written before it replies
 */
import { CHUNK_CHARS, estimateFromHistogram, HISTOGRAM_SLOTS, pieceCuts, scanPieces } from './token-estimate.ts';

/** Characters per chunk (~0.15 ms of scanning): the longest the event loop is held at a time. */
export { CHUNK_CHARS };

const NEXT = 0;
const COUNT = 1;
const CUTS = 2;

/** Creates the shared buffer for `text` (the event loop's side; the worker gets the buffer). */
export function shareEstimate(text: string, chunkChars = CHUNK_CHARS): SharedArrayBuffer {
  const cuts = pieceCuts(text, chunkChars);
  const chunks = cuts.length - 1;
  const buffer = new SharedArrayBuffer((CUTS + cuts.length + HISTOGRAM_SLOTS) * 4);
  const words = new Int32Array(buffer);
  words[COUNT] = chunks;
  words.set(cuts, CUTS);
  return buffer;
}

/** Claims the next chunk and adds its pieces into `counts`; false when every chunk is claimed. */
export function scanNextChunk(buffer: SharedArrayBuffer, text: string, counts: Uint32Array): boolean {
  const words = new Int32Array(buffer);
  const k = Atomics.add(words, NEXT, 1);
  if (k >= words[COUNT]!) return false;
  scanPieces(text, words[CUTS + k]!, words[CUTS + k + 1]!, counts);
  return true;
}

/** The worker's side, after its extraction: scans every chunk left and stores its histogram. */
export function finishInWorker(buffer: SharedArrayBuffer, text: string): void {
  const counts = new Uint32Array(HISTOGRAM_SLOTS);
  while (scanNextChunk(buffer, text, counts));
  new Uint32Array(buffer, histogramOffset(buffer), HISTOGRAM_SLOTS).set(counts);
}

function histogramOffset(buffer: SharedArrayBuffer): number {
  return (CUTS + new Int32Array(buffer)[COUNT]! + 1) * 4;
}

/**
 * The event loop's side: scans chunks, one per loop turn (setImmediate, so I/O and other requests
 * run in between), until none is left or `stop` is called; `total` then adds the worker's
 * histogram (valid once the worker has replied) and gives the estimate.
 */
export class IdleEstimate {
  readonly buffer: SharedArrayBuffer;
  readonly #text: string;
  readonly #counts = new Uint32Array(HISTOGRAM_SLOTS);
  #stopped = false;

  constructor(text: string, chunkChars = CHUNK_CHARS) {
    this.#text = text;
    this.buffer = shareEstimate(text, chunkChars);
  }

  /** Starts scanning on later loop turns (the caller posts the worker's task first). */
  start(): void {
    const step = (): void => {
      if (!this.#stopped && scanNextChunk(this.buffer, this.#text, this.#counts)) setImmediate(step);
    };
    setImmediate(step);
  }

  stop(): void {
    this.#stopped = true;
  }

  /** The estimate, after the worker replied (finishInWorker): both histograms added. */
  total(): number {
    this.#stopped = true;
    // Nothing is left after a worker that finished normally; claimed here all the same if it did not.
    while (scanNextChunk(this.buffer, this.#text, this.#counts));
    const theirs = new Uint32Array(this.buffer, histogramOffset(this.buffer), HISTOGRAM_SLOTS);
    const sum = this.#counts;
    for (let i = 0; i < HISTOGRAM_SLOTS; i++) sum[i]! += theirs[i]!;
    return estimateFromHistogram(sum);
  }
}
