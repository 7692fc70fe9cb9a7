/**
 * A tiny GGUF model written here, so a real llama.cpp engine can run in the test suite
 * with no model download: the shape of a real architecture (llama: token embeddings,
 * RMS norms, attention q/k/v/o, a SwiGLU feed-forward, an output head; 2 layers of 64)
 * with seeded random weights, and a SentencePiece-style vocabulary built from a corpus
 * (single characters, byte fallback, and every `▁word` prefix, so English text takes
 * about one token per word). It proves the plumbing, not a model's quality: its answers
 * are noise that a grammar shapes into JSON.
 *
 * GGUF v3: magic, version, tensor and key-value counts, the key-values, the tensor
 * infos, then the tensor data aligned to 32 bytes (ggml's `ne[0]` first in each shape).
 */
import { writeFileSync } from 'node:fs';

export interface TinyModelShape {
  embedding: number;
  layers: number;
  heads: number;
  feedForward: number;
  contextLength: number;
}

export const tinyShape: TinyModelShape = {
  embedding: 64,
  layers: 2,
  heads: 4,
  feedForward: 128,
  contextLength: 32_768,
};

const enum ValueType {
  uint32 = 4,
  float32 = 6,
  bool = 7,
  string = 8,
  array = 9,
}
const enum TokenType {
  normal = 1,
  unknown = 2,
  control = 3,
  byte = 6,
}
const alignment = 32;
const float32Type = 0;

export interface Vocabulary {
  tokens: string[];
  scores: number[];
  types: number[];
}

/** `<unk> <s> </s>`, the 256 byte tokens, printable ASCII, then each `▁word` prefix of the corpus. */
export function vocabularyOf(corpus: string, extraWords: readonly string[] = []): Vocabulary {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [TokenType.unknown, TokenType.control, TokenType.control];
  const seen = new Set(tokens);
  const add = (token: string, type: TokenType) => {
    if (seen.has(token)) return;
    seen.add(token);
    tokens.push(token);
    types.push(type);
  };
  for (let byte = 0; byte < 256; byte += 1)
    add(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`, TokenType.byte);
  add('▁', TokenType.normal);
  for (let code = 33; code < 127; code += 1) add(String.fromCharCode(code), TokenType.normal);
  const words = [...extraWords, ...(corpus.match(/[A-Za-z]+|\d+/g) ?? [])];
  for (const word of words) {
    const piece = `▁${word}`;
    for (let end = 2; end <= Math.min(piece.length, 16); end += 1) add(piece.slice(0, end), TokenType.normal);
  }
  // Longer pieces win a merge: the tokenizer joins the pair whose result scores highest.
  const scores = tokens.map((token, index) => (types[index] === TokenType.normal ? token.length : 0));
  return { tokens, scores, types };
}

/** A small seeded generator (mulberry32): the same weights on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

interface Tensor {
  name: string;
  shape: number[];
  data: Float32Array;
}

function tensorsOf(shape: TinyModelShape, vocabulary: number, seed: number): Tensor[] {
  const next = random(seed);
  const noise = (count: number, scale: number) => Float32Array.from({ length: count }, () => (next() * 2 - 1) * scale);
  const ones = (count: number) => new Float32Array(count).fill(1);
  const { embedding: width, feedForward: ff } = shape;
  const tensors: Tensor[] = [
    { name: 'token_embd.weight', shape: [width, vocabulary], data: noise(width * vocabulary, 1) },
    { name: 'output_norm.weight', shape: [width], data: ones(width) },
    { name: 'output.weight', shape: [width, vocabulary], data: noise(width * vocabulary, 0.1) },
  ];
  for (let layer = 0; layer < shape.layers; layer += 1) {
    const block = (name: string, dims: number[], data: Float32Array) =>
      tensors.push({ name: `blk.${layer}.${name}.weight`, shape: dims, data });
    block('attn_norm', [width], ones(width));
    for (const name of ['attn_q', 'attn_k', 'attn_v', 'attn_output'])
      block(name, [width, width], noise(width * width, 0.1));
    block('ffn_norm', [width], ones(width));
    block('ffn_gate', [width, ff], noise(width * ff, 0.1));
    block('ffn_up', [width, ff], noise(width * ff, 0.1));
    block('ffn_down', [ff, width], noise(ff * width, 0.1));
  }
  return tensors;
}

/** Little-endian pieces of a GGUF file, joined at the end. */
class GgufWriter {
  private readonly parts: Buffer[] = [];
  length = 0;
  push(buffer: Buffer): void {
    this.parts.push(buffer);
    this.length += buffer.length;
  }
  u32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32LE(value);
    this.push(buffer);
  }
  u64(value: number): void {
    const buffer = Buffer.alloc(8);
    buffer.writeBigUInt64LE(BigInt(value));
    this.push(buffer);
  }
  f32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeFloatLE(value);
    this.push(buffer);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad(): void {
    const extra = (alignment - (this.length % alignment)) % alignment;
    if (extra > 0) this.push(Buffer.alloc(extra));
  }
  buffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}

type MetadataValue =
  | { uint32: number }
  | { float32: number }
  | { bool: boolean }
  | { string: string }
  | { strings: string[] }
  | { float32s: number[] }
  | { int32s: number[] };

function writeValue(writer: GgufWriter, value: MetadataValue): void {
  if ('uint32' in value) return void (writer.u32(ValueType.uint32), writer.u32(value.uint32));
  if ('float32' in value) return void (writer.u32(ValueType.float32), writer.f32(value.float32));
  if ('bool' in value) return void (writer.u32(ValueType.bool), writer.push(Buffer.from([value.bool ? 1 : 0])));
  if ('string' in value) return void (writer.u32(ValueType.string), writer.string(value.string));
  writer.u32(ValueType.array);
  if ('strings' in value) {
    writer.u32(ValueType.string);
    writer.u64(value.strings.length);
    for (const item of value.strings) writer.string(item);
    return;
  }
  const numbers = 'float32s' in value ? value.float32s : value.int32s;
  writer.u32('float32s' in value ? ValueType.float32 : 5);
  writer.u64(numbers.length);
  const buffer = Buffer.alloc(numbers.length * 4);
  numbers.forEach((item, index) =>
    'float32s' in value ? buffer.writeFloatLE(item, index * 4) : buffer.writeInt32LE(item, index * 4),
  );
  writer.push(buffer);
}

/** Writes the model to `path`; returns its vocabulary (a test server biases some of its tokens). */
export function writeTinyGguf(
  path: string,
  corpus: string,
  options: { seed?: number; extraWords?: string[] } = {},
): Vocabulary {
  const vocabulary = vocabularyOf(corpus, options.extraWords);
  const shape = tinyShape;
  const metadata: Array<[string, MetadataValue]> = [
    ['general.architecture', { string: 'llama' }],
    ['general.name', { string: 'autohedge-tiny-random' }],
    ['general.alignment', { uint32: alignment }],
    ['llama.context_length', { uint32: shape.contextLength }],
    ['llama.embedding_length', { uint32: shape.embedding }],
    ['llama.feed_forward_length', { uint32: shape.feedForward }],
    ['llama.block_count', { uint32: shape.layers }],
    ['llama.attention.head_count', { uint32: shape.heads }],
    ['llama.attention.head_count_kv', { uint32: shape.heads }],
    ['llama.attention.layer_norm_rms_epsilon', { float32: 1e-5 }],
    ['llama.rope.dimension_count', { uint32: shape.embedding / shape.heads }],
    ['llama.vocab_size', { uint32: vocabulary.tokens.length }],
    ['tokenizer.ggml.model', { string: 'llama' }],
    ['tokenizer.ggml.tokens', { strings: vocabulary.tokens }],
    ['tokenizer.ggml.scores', { float32s: vocabulary.scores }],
    ['tokenizer.ggml.token_type', { int32s: vocabulary.types }],
    ['tokenizer.ggml.unknown_token_id', { uint32: 0 }],
    ['tokenizer.ggml.bos_token_id', { uint32: 1 }],
    ['tokenizer.ggml.eos_token_id', { uint32: 2 }],
    ['tokenizer.ggml.add_bos_token', { bool: true }],
    ['tokenizer.ggml.add_eos_token', { bool: false }],
  ];
  const tensors = tensorsOf(shape, vocabulary.tokens.length, options.seed ?? 46);
  const writer = new GgufWriter();
  writer.push(Buffer.from('GGUF', 'ascii'));
  writer.u32(3);
  writer.u64(tensors.length);
  writer.u64(metadata.length);
  for (const [key, value] of metadata) {
    writer.string(key);
    writeValue(writer, value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    writer.string(tensor.name);
    writer.u32(tensor.shape.length);
    for (const dimension of tensor.shape) writer.u64(dimension);
    writer.u32(float32Type);
    writer.u64(offset);
    offset += Math.ceil(tensor.data.byteLength / alignment) * alignment;
  }
  writer.pad();
  for (const tensor of tensors) {
    writer.push(Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    writer.pad();
  }
  writeFileSync(path, writer.buffer());
  return vocabulary;
}
