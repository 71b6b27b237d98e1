// A generated reranker: a tiny qwen3 model with rank pooling and a classification head
// (`cls.output.weight`, labels "yes" and "no"), as node-llama-cpp and llama.cpp see Qwen3-Reranker.
// No model can be downloaded here, so its weights are written by hand to compute one honest notion
// of relevance: how much the document's words overlap the query's (a keyword reranker).
//
// node-llama-cpp evaluates `<s> query </s> document </s>`; llama.cpp's rank pooling on qwen3 takes
// the last token's state, applies the head and a softmax over the two labels: the score is P("yes").
// - Words: a fixed list of English words are whole tokens (with every prefix, so SentencePiece's
//   pairwise merges reach them); each has a channel of its own. Anything else (stop words,
//   punctuation, unknown words) falls to byte tokens that light no word channel.
// - Layer 1, head 0: every position attends to the `</s>` tokens it can see (none before the query
//   ends): a SEGMENT channel becomes 1 on the document's side and stays 0 on the query's.
// - Layer 2: BAG_HEADS heads average the word channels of the query's side into QUERY_BAG, as many
//   those of the document's side into DOC_BAG; the feed-forward block (SwiGLU, whose product is what
//   makes an interaction possible) writes their dot product into SCORE: 0 when no word is shared.
// - The head reads SCORE as the "yes" logit against a fixed "no" logit.
// RoPE's base is huge so the head dims used here barely turn over thousands of positions.
import { writeFile } from 'node:fs/promises';
import { array, bool, buildGguf, f32, GGUF_ALIGNMENT, str, T_FLOAT32, T_INT32, T_STRING, u32, type MetadataWriter, type Tensor } from './gguf-writer.js';

/** One channel per known word (exact: two words never share a channel), in whole heads. */
const WORD_DIMS = 96;
const HEAD_DIM = 16;
const BAG_HEADS = WORD_DIMS / HEAD_DIM;
const E = 320;
const HEADS = E / HEAD_DIM;
const LAYERS = 2;
const FEED_FORWARD = 2 * WORD_DIMS;
/**
 * Every token's BIAS channel: large beside the rest, so each RMS norm scales a state by about
 * sqrt(E) / BIAS_VALUE whatever its content, and the sums below stay sums.
 */
const BIAS_VALUE = 8;

// Residual channels.
const BIAS = 0;
const EOS_FLAG = 1;
const SEGMENT = 2;
const SCORE = 3;
const WORD = 16;
const QUERY_BAG = WORD + WORD_DIMS;
const DOC_BAG = QUERY_BAG + WORD_DIMS;

/** The head dim that carries the attention patterns (a slow RoPE pair: see the top of the file). */
const PATTERN_DIM = 7;
/** q_norm and k_norm scale the normalized pattern dim: a logit of 4·4·4·4/4 = 64 for a match. */
const PATTERN_NORM = 4;
/** How much the feed-forward block amplifies the bags' dot product into SCORE (one shared word in short texts: ~5). */
const SCORE_GAIN = 12;
/** The "no" label's logit: no shared word scores sigmoid(−3) ≈ 0.05. */
const NO_LOGIT = 3;

/** The words the reranker knows: whatever else a text says counts for nothing. */
export const RERANKER_WORDS: readonly string[] = (
  'apple apples bake baking bread cake cat cats coffee cook cooking dog dogs garden gardening grow paris france ' +
  'london rain weather snow sun city capital train trains car cars engine battery backup backups restore disk file ' +
  'files model models sleep sleeps eat eats food fish water river mountain music piano guitar song book books read ' +
  'school teacher doctor health heart tree trees flower flowers computer keyboard screen phone network server ' +
  'password key football tennis game moon star stars planet ocean beach winter summer tea'
).split(' ');

// Vocabulary: <unk>, <s>, </s>, the 256 byte tokens, "▁", then every prefix of every word, with and without "▁".
const BOS_ID = 1;
const EOS_ID = 2;
const SPACE_PIECE = '\u2581';
const TOKEN_NORMAL = 1;
const TOKEN_UNKNOWN = 2;
const TOKEN_CONTROL = 3;
const TOKEN_BYTE = 6;

interface Vocabulary {
  tokens: string[];
  types: number[];
  scores: number[];
  /** Token id -> index in RERANKER_WORDS, for whole words. */
  words: Map<number, number>;
}

function vocabulary(): Vocabulary {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_CONTROL];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN_BYTE);
  }
  tokens.push(SPACE_PIECE);
  types.push(TOKEN_NORMAL);
  // Each word with and without "▁": node-llama-cpp tokenizes a query and a document with their
  // leading space trimmed, so their first word comes without it.
  const pieces = new Map<string, number>();
  const words = new Map<number, number>();
  RERANKER_WORDS.forEach((word, index) => {
    for (const start of [SPACE_PIECE, '']) {
      for (let k = 1; k <= word.length; k++) {
        const piece = start + word.slice(0, k);
        let id = pieces.get(piece);
        if (id === undefined) {
          id = tokens.length;
          pieces.set(piece, id);
          tokens.push(piece);
          types.push(TOKEN_NORMAL);
        }
        if (k === word.length) words.set(id, index);
      }
    }
  });
  // Longer pieces first, as a trained SentencePiece vocabulary scores them.
  const scores = tokens.map((token, id) => (id > EOS_ID + 257 ? token.length : 0));
  return { tokens, types, scores, words };
}

export async function writeRerankerModel(path: string): Promise<void> {
  await writeFile(path, buildRerankerModel());
}

export function buildRerankerModel(): Buffer {
  const vocab = vocabulary();
  return buildGguf(metadata(vocab), tensors(vocab));
}

function metadata(vocab: Vocabulary): MetadataWriter[] {
  const arch = 'qwen3';
  const n = vocab.tokens.length;
  return [
    str('general.architecture', arch),
    str('general.name', 'sanad-reranker'),
    u32('general.alignment', GGUF_ALIGNMENT),
    u32('general.file_type', 0),
    u32(`${arch}.vocab_size`, n),
    u32(`${arch}.context_length`, 8192),
    u32(`${arch}.embedding_length`, E),
    u32(`${arch}.block_count`, LAYERS),
    u32(`${arch}.feed_forward_length`, FEED_FORWARD),
    u32(`${arch}.attention.head_count`, HEADS),
    u32(`${arch}.attention.head_count_kv`, HEADS),
    u32(`${arch}.attention.key_length`, HEAD_DIM),
    u32(`${arch}.attention.value_length`, HEAD_DIM),
    u32(`${arch}.rope.dimension_count`, HEAD_DIM),
    f32(`${arch}.rope.freq_base`, 1e12),
    f32(`${arch}.attention.layer_norm_rms_epsilon`, 1e-6),
    // llama.cpp's pooling type 4: rank, what a reranker's file declares.
    u32(`${arch}.pooling_type`, 4),
    array(`${arch}.classifier.output_labels`, T_STRING, 2, (o, i) => o.string(i === 0 ? 'yes' : 'no')),
    str('tokenizer.ggml.model', 'llama'),
    array('tokenizer.ggml.tokens', T_STRING, n, (o, i) => o.string(vocab.tokens[i] ?? '')),
    array('tokenizer.ggml.scores', T_FLOAT32, n, (o, i) => o.f32(vocab.scores[i] ?? 0)),
    array('tokenizer.ggml.token_type', T_INT32, n, (o, i) => o.i32(vocab.types[i] ?? TOKEN_NORMAL)),
    u32('tokenizer.ggml.bos_token_id', BOS_ID),
    u32('tokenizer.ggml.eos_token_id', EOS_ID),
    u32('tokenizer.ggml.unknown_token_id', 0),
    bool('tokenizer.ggml.add_bos_token', true),
    bool('tokenizer.ggml.add_eos_token', false),
  ];
}

/** A [in, out] weight matrix (ggml shape [in, out], stored out-major) with a setter by (out, in). */
function matrix(inputs: number, outputs: number): { data: Float32Array; set: (out: number, input: number, value: number) => void } {
  const data = new Float32Array(inputs * outputs);
  return { data, set: (out, input, value) => void (data[out * inputs + input] = value) };
}

function tensors(vocab: Vocabulary): Tensor[] {
  const n = vocab.tokens.length;
  // How much the first RMS norm scales a token's embedding (BIAS_VALUE, plus 1 for `</s>`'s flag or a word's channel).
  const normOf = (extra: number): number => Math.sqrt(E / (BIAS_VALUE * BIAS_VALUE + extra));
  const embedding = matrix(E, n);
  for (let token = 0; token < n; token++) {
    embedding.set(token, BIAS, BIAS_VALUE);
    if (token === EOS_ID) embedding.set(token, EOS_FLAG, 1);
    const word = vocab.words.get(token);
    if (word !== undefined) embedding.set(token, WORD + word, 1);
  }

  const ones = (size: number): Float32Array => new Float32Array(size).fill(1);
  const patternNorm = ones(HEAD_DIM);
  patternNorm[PATTERN_DIM] = PATTERN_NORM;
  const out: Tensor[] = [{ name: 'token_embd.weight', shape: [E, n], data: embedding.data }];

  for (let layer = 0; layer < LAYERS; layer++) {
    const q = matrix(E, E);
    const k = matrix(E, E);
    const v = matrix(E, E);
    const o = matrix(E, E);
    const gate = matrix(E, FEED_FORWARD);
    const up = matrix(E, FEED_FORWARD);
    const down = matrix(FEED_FORWARD, E);
    const at = (head: number, dim: number): number => head * HEAD_DIM + dim;
    if (layer === 0) {
      // Head 0 looks for `</s>`: its value is the flag, written to SEGMENT as 1.
      q.set(at(0, PATTERN_DIM), BIAS, 1);
      k.set(at(0, PATTERN_DIM), EOS_FLAG, 1);
      v.set(at(0, 0), EOS_FLAG, 1);
      o.set(SEGMENT, at(0, 0), 1 / normOf(1));
    } else {
      // The first BAG_HEADS heads attend to the query's side (key 1 − 2·SEGMENT > 0), the next
      // BAG_HEADS to the document's (2·SEGMENT − 1 > 0); their values are the word channels.
      for (let head = 0; head < 2 * BAG_HEADS; head++) {
        const querySide = head < BAG_HEADS;
        q.set(at(head, PATTERN_DIM), BIAS, 1);
        k.set(at(head, PATTERN_DIM), BIAS, (querySide ? 1 : -1) / BIAS_VALUE);
        k.set(at(head, PATTERN_DIM), SEGMENT, querySide ? -2 : 2);
        for (let d = 0; d < HEAD_DIM; d++) {
          const channel = (head % BAG_HEADS) * HEAD_DIM + d;
          v.set(at(head, d), WORD + channel, 1);
          o.set((querySide ? QUERY_BAG : DOC_BAG) + channel, at(head, d), 1);
        }
      }
      // SCORE = Σ QUERY_BAG·DOC_BAG: neuron d is SiLU(BIAS + q_d)·d_d and neuron WORD_DIMS + d is
      // SiLU(BIAS)·(−d_d), which takes the offset's part away again. The normalized BIAS is about
      // sqrt(E) / BIAS_VALUE · BIAS_VALUE ≈ 18, where SiLU is the identity to 1e-7.
      for (let d = 0; d < WORD_DIMS; d++) {
        gate.set(d, BIAS, 1);
        gate.set(d, QUERY_BAG + d, 1);
        up.set(d, DOC_BAG + d, SCORE_GAIN);
        gate.set(WORD_DIMS + d, BIAS, 1);
        up.set(WORD_DIMS + d, DOC_BAG + d, -SCORE_GAIN);
        down.set(SCORE, d, 1);
        down.set(SCORE, WORD_DIMS + d, 1);
      }
    }
    const p = `blk.${layer}.`;
    out.push(
      { name: `${p}attn_norm.weight`, shape: [E], data: ones(E) },
      { name: `${p}attn_q.weight`, shape: [E, E], data: q.data },
      { name: `${p}attn_k.weight`, shape: [E, E], data: k.data },
      { name: `${p}attn_v.weight`, shape: [E, E], data: v.data },
      { name: `${p}attn_q_norm.weight`, shape: [HEAD_DIM], data: patternNorm },
      { name: `${p}attn_k_norm.weight`, shape: [HEAD_DIM], data: patternNorm },
      { name: `${p}attn_output.weight`, shape: [E, E], data: o.data },
      { name: `${p}ffn_norm.weight`, shape: [E], data: ones(E) },
      { name: `${p}ffn_gate.weight`, shape: [E, FEED_FORWARD], data: gate.data },
      { name: `${p}ffn_up.weight`, shape: [E, FEED_FORWARD], data: up.data },
      { name: `${p}ffn_down.weight`, shape: [FEED_FORWARD, E], data: down.data },
    );
  }
  const head = matrix(E, 2);
  // After the final norm BIAS is about sqrt(E) (it dominates every state).
  head.set(0, SCORE, 1);
  head.set(1, BIAS, NO_LOGIT / Math.sqrt(E));
  out.push(
    { name: 'output_norm.weight', shape: [E], data: ones(E) },
    { name: 'output.weight', shape: [E, n], data: new Float32Array(E * n) },
    { name: 'cls.output.weight', shape: [E, 2], data: head.data },
  );
  return out;
}
