/**
 * Writes a tiny, valid sentence-transformers-style model directory for the EMBEDDER=transformers
 * path: a WordPiece tokenizer over a dozen words and an ONNX graph that is a single Gather
 * (token embeddings = last_hidden_state), hand-encoded as protobuf. Mean pooling of those
 * embeddings is then the sentence vector. Nothing is downloaded.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// --- minimal protobuf writer (varints, length-delimited fields).
function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
}
const key = (field: number, wire: number): number[] => varint((field << 3) | wire);
const int = (field: number, n: number): number[] => [...key(field, 0), ...varint(n)];
const bytes = (field: number, b: Uint8Array | number[]): number[] => [...key(field, 2), ...varint(b.length), ...b];
const str = (field: number, s: string): number[] => bytes(field, [...Buffer.from(s, 'utf8')]);

function tensorType(elemType: number, dims: Array<string | number>): number[] {
  const shape = dims.flatMap((d) => bytes(1, typeof d === 'string' ? str(2, d) : int(1, d)));
  return bytes(1, [...int(1, elemType), ...bytes(2, shape)]);
}
const valueInfo = (name: string, elemType: number, dims: Array<string | number>): number[] => [...str(1, name), ...bytes(2, tensorType(elemType, dims))];

export const TINY_VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'how', 'do', 'i', 'reset', 'my', 'password', 'router', 'change', 'can', '?'];

/** Creates the directory and returns its path. Vectors: "password" and "router" far apart, "reset" = "change". */
export function writeTinySentenceModel(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'api05-tiny-model-'));
  const dims = 4;
  const table: Record<string, number[]> = {
    reset: [1, 0, 0, 0],
    change: [1, 0, 0, 0],
    password: [0, 1, 0, 0],
    router: [0, 0, 1, 0],
  };
  const raw = new Float32Array(TINY_VOCAB.length * dims);
  TINY_VOCAB.forEach((w, i) => raw.set(table[w] ?? [0, 0, 0, 0.2], i * dims));
  const initializer = [...int(1, TINY_VOCAB.length), ...int(1, dims), ...int(2, 1), ...str(8, 'emb'), ...bytes(9, new Uint8Array(raw.buffer))];
  const node = [...str(1, 'emb'), ...str(1, 'input_ids'), ...str(2, 'last_hidden_state'), ...str(3, 'gather'), ...str(4, 'Gather')];
  const graph = [
    ...bytes(1, node),
    ...str(2, 'tiny'),
    ...bytes(5, initializer),
    ...bytes(11, valueInfo('input_ids', 7, ['batch', 'seq'])),
    ...bytes(12, valueInfo('last_hidden_state', 1, ['batch', 'seq', dims])),
  ];
  const model = [...int(1, 8), ...str(2, 'api05-test'), ...bytes(7, graph), ...bytes(8, [...str(1, ''), ...int(2, 13)])];
  mkdirSync(path.join(dir, 'onnx'));
  writeFileSync(path.join(dir, 'onnx', 'model.onnx'), Uint8Array.from(model));
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ model_type: 'bert', hidden_size: dims, vocab_size: TINY_VOCAB.length }));
  writeFileSync(path.join(dir, 'tokenizer_config.json'), JSON.stringify({ tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 64 }));
  writeFileSync(
    path.join(dir, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]'].map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
      normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      post_processor: {
        type: 'TemplateProcessing',
        single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
        pair: [{ Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }],
        special_tokens: { '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] } },
      },
      decoder: null,
      model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(TINY_VOCAB.map((w, i) => [w, i])) },
    }),
  );
  return dir;
}
