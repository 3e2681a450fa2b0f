/**
 * One compact binary file per model, loaded at boot:
 *
 *   offset 0   "LGWM"             magic
 *          4   u32 LE             version (1)
 *          8   u32 LE             header length H
 *         12   H bytes            UTF-8 JSON header: { dim, bias, weights: "f32"|"i8", scale?,
 *                                 calibration, meta }
 *     12 + H   dim × 4 or dim × 1 weights, little-endian float32, or int8 with w = q × scale
 *
 * JSON keys are written in a fixed order and numbers by JS's shortest round-trip form, so equal
 * models give equal bytes.
 */
import type { Calibration } from './calibrate.ts';
import { LinearModel } from './linear.ts';

const MAGIC = 'LGWM';
const VERSION = 1;

export type WeightFormat = 'f32' | 'i8';

export interface ModelBundle {
  readonly model: LinearModel;
  readonly calibration: Calibration;
  /** Anything JSON: the feature spec, the training sources, the thresholds. */
  readonly meta: Record<string, unknown>;
}

/** Serialises a model. `i8` stores each weight in one byte (max |w| / 127 steps): 4× smaller. */
export function encodeModel(bundle: ModelBundle, options: { weights?: WeightFormat } = {}): Buffer {
  const format = options.weights ?? 'f32';
  const w = bundle.model.weights;
  let body: Buffer;
  let scale: number | undefined;
  if (format === 'f32') {
    body = Buffer.alloc(w.length * 4);
    for (let i = 0; i < w.length; i++) body.writeFloatLE(w[i]!, i * 4);
  } else {
    let max = 0;
    for (let i = 0; i < w.length; i++) max = Math.max(max, Math.abs(w[i]!));
    scale = Math.fround(max === 0 ? 1 : max / 127);
    body = Buffer.alloc(w.length);
    for (let i = 0; i < w.length; i++) body.writeInt8(Math.max(-127, Math.min(127, Math.round(w[i]! / scale))), i);
  }
  const header = Buffer.from(
    JSON.stringify({ dim: w.length, bias: bundle.model.bias, weights: format, ...(scale === undefined ? {} : { scale }), calibration: bundle.calibration, meta: bundle.meta }),
    'utf8',
  );
  const head = Buffer.alloc(12);
  head.write(MAGIC, 0, 'ascii');
  head.writeUInt32LE(VERSION, 4);
  head.writeUInt32LE(header.length, 8);
  return Buffer.concat([head, header, body]);
}

/** Reads a model written by `encodeModel`; throws a TypeError naming what is wrong. */
export function decodeModel(buf: Uint8Array): ModelBundle {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < 12 || b.toString('ascii', 0, 4) !== MAGIC) throw new TypeError('not a model file (magic)');
  const version = b.readUInt32LE(4);
  if (version !== VERSION) throw new TypeError(`model file version ${version} is not ${VERSION}`);
  const hlen = b.readUInt32LE(8);
  if (12 + hlen > b.length) throw new TypeError('model file header is cut');
  const header = JSON.parse(b.toString('utf8', 12, 12 + hlen)) as {
    dim: number; bias: number; weights: WeightFormat; scale?: number; calibration: Calibration; meta: Record<string, unknown>;
  };
  const { dim, weights: format } = header;
  const start = 12 + hlen;
  const need = format === 'f32' ? dim * 4 : format === 'i8' ? dim : -1;
  if (!Number.isInteger(dim) || dim < 1 || need < 0 || b.length !== start + need) throw new TypeError('model file weights do not match its header');
  const w = new Float32Array(dim);
  if (format === 'f32') for (let i = 0; i < dim; i++) w[i] = b.readFloatLE(start + i * 4);
  else {
    const scale = header.scale ?? 1;
    for (let i = 0; i < dim; i++) w[i] = b.readInt8(start + i) * scale;
  }
  return { model: new LinearModel(w, header.bias), calibration: header.calibration, meta: header.meta };
}
