// The generator of Sanad's demo and test model: a tiny random-weight GGUF v3 "llama" model (no model
// can be downloaded here), written by `npm run setup` (scripts/demo-model.mjs) and by the tests.
// The layout follows what llama.cpp was verified to need (shared notes, "Local inference").
// Two kinds, both deterministic:
// - `finishes` (the default, the demo model): an exact bigram model that answers "OK,demo!" and
//   then `</s>`, for any prompt, so a client sees `completed` as it would with a real model. Every
//   token's embedding is one channel (the attention and feed-forward outputs are zero, so the last
//   hidden state is the token's own embedding): after a chain byte comes the next one, after the
//   last `</s>`, after anything else the first. At most 9 tokens, whatever came before.
// - `endless`: random weights rigged so the model only ever emits visible ASCII byte tokens and
//   never `</s>`: every generation runs to its token limit, which makes cancel and crash timings
//   and load tests predictable.
import { writeFile } from 'node:fs/promises';
import {
  array,
  bool,
  buildGguf,
  f32,
  GGUF_ALIGNMENT,
  mulberry32,
  str,
  T_FLOAT32,
  T_INT32,
  T_STRING,
  u32,
  type MetadataWriter,
  type Tensor,
} from './gguf-writer.js';
import { THINKING_CHAT_TEMPLATE, THINKING_EXTRA_TOKENS, THINKING_MODEL_THOUGHT } from './thinking-model.js';

/** A model's width and depth (llama's hyperparameters). */
export interface ModelDims {
  embedding: number;
  layers: number;
  feedForward: number;
  heads: number;
}

/** The tiny model: a few hundred KB, thousands of tokens a second. */
export const TINY_DIMS: ModelDims = { embedding: 64, layers: 2, feedForward: 128, heads: 4 };
/**
 * A mid-size model (~413 MB of f32 weights, about what a 0.5B quantized model costs per token here):
 * ~30 tok/s for one stream on two cores. Speed measured on the tiny model hides what a real model costs.
 */
export const MID_SIZE_DIMS: ModelDims = { embedding: 1024, layers: 8, feedForward: 2816, heads: 16 };

const EMBEDDING = TINY_DIMS.embedding;

// Vocabulary: <unk>, <s>, </s>, then the 256 byte tokens <0x00>..<0xFF>, then "▁".
const UNK_ID = 0;
const BOS_ID = 1;
const EOS_ID = 2;
const FIRST_BYTE_ID = 3;
const SPACE_PIECE = '\u2581';
const BASE_VOCAB_SIZE = FIRST_BYTE_ID + 256 + 1;
/** Ids of the thinking model's extra tokens (THINKING_EXTRA_TOKENS, in order). */
const THINK_ID = BASE_VOCAB_SIZE + 2;
const END_THINK_ID = BASE_VOCAB_SIZE + 3;
const NEWLINE_PIECE_ID = BASE_VOCAB_SIZE + 4;
const DOUBLE_NEWLINE_ID = BASE_VOCAB_SIZE + 5;
/** The endless thinker's first own channel (channel 0 is the printable lean). */
const THINK_CHANNEL = 1;
const N_NEWLINE_ID = BASE_VOCAB_SIZE + 6;

// llama.cpp token types.
const TOKEN_NORMAL = 1;
const TOKEN_UNKNOWN = 2;
const TOKEN_CONTROL = 3;
const TOKEN_BYTE = 6;

/** Weight of output column 0 (see buildTensors). */
const OUTPUT_LEAN = 2;

export interface TinyModelOptions {
  /** Seed of the weights; the same seed gives the same bytes. */
  seed?: number;
  /** `llama.context_length` written in the metadata. */
  contextLength?: number;
  /** Whether answers end by themselves ("OK,demo!" then `</s>`); false: they run to the limit. Default true. */
  finishes?: boolean;
  /** Width and depth of an endless model (the finishing one is always tiny). Default TINY_DIMS. */
  dims?: ModelDims;
  /**
   * A finishing model that thinks first, as node-llama-cpp sees a Qwen3 model (thinking-model.ts):
   * `<think>` THINKING_MODEL_THOUGHT `</think>` then TINY_MODEL_ANSWER. Default false.
   */
  thinks?: boolean;
  /** Declares mean pooling (`llama.pooling_type` 1), as an embedding model's file does. Default false. */
  embeds?: boolean;
  /** Has fill-in-the-middle tokens (prefix, suffix, middle), as a code model's file does. Default false. */
  fills?: boolean;
}

/** A code model's fill-in-the-middle tokens, in the vocabulary after the base tokens. */
export const FIM_TOKENS = ['<|fim_prefix|>', '<|fim_suffix|>', '<|fim_middle|>'] as const;

/** What the finishing model answers, every time: distinct bytes, so each has one successor. */
export const TINY_MODEL_ANSWER = 'OK,demo!';

/** The byte a token id stands for, when it is one of the `<0xNN>` tokens. */
export function tinyModelByteOfToken(id: number): number | null {
  const byte = id - FIRST_BYTE_ID;
  return byte >= 0 && byte < 256 ? byte : null;
}

/**
 * Bytes the model may print: visible ASCII 0x21..0x7E except `#` and `<`.
 * - No space: on re-tokenization (a resume feeds the text back) a space becomes "▁", not <0x20>,
 *   so a model printing spaces could not continue token-for-token where it stopped.
 * - No `#` or `<`: they start the stop triggers of node-llama-cpp's GeneralChatWrapper
 *   ("### Human", "<end>"); text that might be a trigger is held back, and at the token limit it is
 *   dropped, so the generation would come out a token short.
 */
export function isTinyModelPrintable(byte: number): boolean {
  return byte >= 0x21 && byte <= 0x7e && byte !== 0x23 && byte !== 0x3c;
}

export async function writeTinyModel(path: string, options: TinyModelOptions = {}): Promise<void> {
  await writeFile(path, buildTinyModel(options));
}

export function buildTinyModel(options: TinyModelOptions = {}): Buffer {
  const seed = options.seed ?? 1;
  const contextLength = options.contextLength ?? 2048;
  const random = mulberry32(seed);
  const dims = options.finishes === false ? (options.dims ?? TINY_DIMS) : TINY_DIMS;
  const thinks = options.thinks === true;
  const fills = options.fills === true && !thinks;
  const vocabSize = thinks ? BASE_VOCAB_SIZE + THINKING_EXTRA_TOKENS.length : fills ? BASE_VOCAB_SIZE + FIM_TOKENS.length : BASE_VOCAB_SIZE;
  const tensors = options.finishes === false ? buildTensors(random, dims, thinks, vocabSize) : buildFinishingTensors(random, thinks, vocabSize);
  return buildGguf(buildMetadata(contextLength, dims, thinks, options.embeds === true, fills), tensors);
}

function buildMetadata(contextLength: number, dims: ModelDims, thinks: boolean, embeds: boolean, fills: boolean): MetadataWriter[] {
  const tokens: string[] = ['<unk>', '<s>', '</s>'];
  const types: number[] = [TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_CONTROL];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN_BYTE);
  }
  tokens.push(SPACE_PIECE);
  types.push(TOKEN_NORMAL);
  if (thinks)
    for (const [text, type] of THINKING_EXTRA_TOKENS) {
      tokens.push(text);
      types.push(type);
    }
  if (fills)
    for (const text of FIM_TOKENS) {
      tokens.push(text);
      types.push(TOKEN_CONTROL);
    }

  // A thinking model is a qwen3 one (node-llama-cpp offers QwenChatWrapper to that architecture only).
  const arch = thinks ? 'qwen3' : 'llama';
  return [
    str('general.architecture', arch),
    str('general.name', thinks ? 'sanad-thinker' : 'sanad-tiny'),
    u32('general.alignment', GGUF_ALIGNMENT),
    u32('general.file_type', 0),
    u32(`${arch}.vocab_size`, tokens.length),
    u32(`${arch}.context_length`, contextLength),
    u32(`${arch}.embedding_length`, dims.embedding),
    u32(`${arch}.block_count`, dims.layers),
    u32(`${arch}.feed_forward_length`, dims.feedForward),
    u32(`${arch}.attention.head_count`, dims.heads),
    u32(`${arch}.attention.head_count_kv`, dims.heads),
    u32(`${arch}.rope.dimension_count`, dims.embedding / dims.heads),
    f32(`${arch}.rope.freq_base`, 10000),
    f32(`${arch}.attention.layer_norm_rms_epsilon`, 1e-5),
    str('tokenizer.ggml.model', 'llama'),
    array('tokenizer.ggml.tokens', T_STRING, tokens.length, (o, i) => o.string(tokens[i] ?? '')),
    array('tokenizer.ggml.scores', T_FLOAT32, tokens.length, (o) => o.f32(0)),
    array('tokenizer.ggml.token_type', T_INT32, types.length, (o, i) => o.i32(types[i] ?? TOKEN_NORMAL)),
    u32('tokenizer.ggml.bos_token_id', BOS_ID),
    u32('tokenizer.ggml.eos_token_id', EOS_ID),
    u32('tokenizer.ggml.unknown_token_id', UNK_ID),
    bool('tokenizer.ggml.add_bos_token', true),
    bool('tokenizer.ggml.add_eos_token', false),
    // Qwen's text has no leading space; with one, "<think>\n" would tokenize as `<think>` "▁" "\n".
    ...(thinks ? [bool('tokenizer.ggml.add_space_prefix', false), str('tokenizer.chat_template', THINKING_CHAT_TEMPLATE)] : []),
    // llama.cpp's pooling types: 1 is mean, what most embedding models (bge, nomic) declare.
    ...(embeds ? [u32(`${arch}.pooling_type`, 1)] : []),
    // llama.cpp reads a model's fill-in-the-middle tokens from these (LlamaCompletion's infill).
    ...(fills
      ? [
          u32('tokenizer.ggml.fim_pre_token_id', BASE_VOCAB_SIZE),
          u32('tokenizer.ggml.fim_suf_token_id', BASE_VOCAB_SIZE + 1),
          u32('tokenizer.ggml.fim_mid_token_id', BASE_VOCAB_SIZE + 2),
        ]
      : []),
  ];
}

function buildTensors(random: () => number, dims: ModelDims, thinks: boolean, vocabSize: number): Tensor[] {
  const { embedding: E, feedForward: F, layers: LAYERS } = dims;
  // Wider models sum more random terms: their random parts shrink so the same lean still decides
  // (the shared notes measured std ~0.02 for the output at width 1024; 0.5 made it emit nothing).
  const narrow = TINY_DIMS.embedding / E;
  const root = Math.sqrt(narrow);
  const small = (shape: number[], scale: number): Tensor['data'] => {
    const data = new Float32Array(shape.reduce((x, y) => x * y, 1));
    for (let i = 0; i < data.length; i++) data[i] = (random() * 2 - 1) * scale;
    return data;
  };
  const ones = (n: number): Float32Array => new Float32Array(n).fill(1);

  // Channel 0 of every embedding is 1 and the other channels are small, so after the final RMS
  // norm channel 0 is about 4.7 at every position, and the rest spreads around ±1.4.
  const embedding = small([E, vocabSize], 0.3 * root);
  for (let token = 0; token < vocabSize; token++) embedding[token * E] = 1;

  // Column 0 of the output projection then decides: +2 for printable bytes, -2 for everything else
  // (control tokens, `</s>`, other bytes, "▁"), a gap of about 19 logits against a random part
  // with a spread of about 1: even sampling at temperature 1 picks a non-printable token with odds
  // around 1e-8 per token. The random part is kept that large on purpose: clear gaps between the
  // top candidates keep greedy decoding stable against rounding (batched vs one-token evaluation).
  const output = small([E, vocabSize], 0.3 * narrow);
  for (let token = 0; token < vocabSize; token++) {
    const byte = tinyModelByteOfToken(token);
    output[token * E] = byte !== null && isTinyModelPrintable(byte) ? OUTPUT_LEAN : -OUTPUT_LEAN;
  }

  // The endless *thinker* opens a thought and then thinks forever: after the prompt's "\n" piece
  // comes `<think>`, after it the "\n" byte, then printable bytes as above. Each of the two steps
  // has a channel of its own that only its token has (zero everywhere else, and no layer writes to
  // it), worth ~20 logits over the printable lean.
  const thinkSteps: ReadonlyArray<readonly [number, number]> = thinks
    ? [
        [NEWLINE_PIECE_ID, THINK_ID],
        [THINK_ID, byteToken(0x0a)],
      ]
    : [];
  thinkSteps.forEach(([from, to], i) => {
    const ch = THINK_CHANNEL + i;
    for (let token = 0; token < vocabSize; token++) embedding[token * E + ch] = 0;
    embedding[from * E + ch] = 4;
    output[to * E + ch] = 3;
  });
  const quiet = (data: Float32Array, rows: number): Float32Array => {
    // Rows are output channels of a [in, out] matrix stored out-major: zero the thinker's channels.
    for (let i = 0; i < thinkSteps.length; i++) data.fill(0, (THINK_CHANNEL + i) * rows, (THINK_CHANNEL + i + 1) * rows);
    return data;
  };
  const tensors: Tensor[] = [{ name: 'token_embd.weight', shape: [E, vocabSize], data: embedding }];
  for (let layer = 0; layer < LAYERS; layer++) {
    const p = `blk.${layer}.`;
    if (thinks)
      tensors.push(
        { name: `${p}attn_q_norm.weight`, shape: [E / dims.heads], data: ones(E / dims.heads) },
        { name: `${p}attn_k_norm.weight`, shape: [E / dims.heads], data: ones(E / dims.heads) },
      );
    tensors.push(
      { name: `${p}attn_norm.weight`, shape: [E], data: ones(E) },
      { name: `${p}attn_q.weight`, shape: [E, E], data: small([E, E], 0.1 * root) },
      { name: `${p}attn_k.weight`, shape: [E, E], data: small([E, E], 0.1 * root) },
      { name: `${p}attn_v.weight`, shape: [E, E], data: small([E, E], 0.05 * root) },
      { name: `${p}attn_output.weight`, shape: [E, E], data: quiet(small([E, E], 0.05 * root), E) },
      { name: `${p}ffn_norm.weight`, shape: [E], data: ones(E) },
      { name: `${p}ffn_gate.weight`, shape: [E, F], data: small([E, F], 0.05 * root) },
      { name: `${p}ffn_up.weight`, shape: [E, F], data: small([E, F], 0.05 * root) },
      { name: `${p}ffn_down.weight`, shape: [F, E], data: quiet(small([F, E], 0.05 * root), F) },
    );
  }
  tensors.push({ name: 'output_norm.weight', shape: [E], data: ones(E) }, { name: 'output.weight', shape: [E, vocabSize], data: output });
  return tensors;
}

/** Token id of a printable byte. */
function byteToken(byte: number): number {
  return FIRST_BYTE_ID + byte;
}

/** The bigram model of TINY_MODEL_ANSWER (see the top of this file), or of a thought and it (thinking-model.ts). */
function buildFinishingTensors(random: () => number, thinks: boolean, vocabSize: number): Tensor[] {
  const { layers: LAYERS, feedForward: FEED_FORWARD } = TINY_DIMS;
  const bytes = (text: string): number[] => [...Buffer.from(text, 'latin1')].map(byteToken);
  const thought = bytes(THINKING_MODEL_THOUGHT);
  // The thought's last byte is "n": the "n\n" piece is that byte and the newline before `</think>`.
  if (thinks && THINKING_MODEL_THOUGHT.at(-1) !== 'n') throw new Error('tiny-model: the thought must end with "n"');
  const chain = thinks
    ? [THINK_ID, byteToken(0x0a), ...thought.slice(0, -1), N_NEWLINE_ID, END_THINK_ID, ...bytes(TINY_MODEL_ANSWER)]
    : bytes(TINY_MODEL_ANSWER);
  if (new Set(chain).size !== chain.length || chain.length + 1 > EMBEDDING) throw new Error('tiny-model: the answer needs distinct bytes');
  // Token -> its channel: chain tokens 1..n, everything else 0.
  const channel = new Map(chain.map((token, i) => [token, i + 1]));
  // A prompt that ends with an empty thought ("</think>\n\n") goes on as after `</think>`: the answer.
  if (thinks) channel.set(DOUBLE_NEWLINE_ID, chain.indexOf(END_THINK_ID) + 1);
  const embedding = new Float32Array(EMBEDDING * vocabSize);
  for (let token = 0; token < vocabSize; token++) embedding[token * EMBEDDING + (channel.get(token) ?? 0)] = 1;
  // After the RMS norm a one-hot state is 8 in its channel: a weight of 3 is a logit of 24 against
  // 0 for every other token, so even sampling at temperature 2 follows the chain (odds ~1e-3 per
  // answer of a stray token; greedy never strays).
  const output = new Float32Array(EMBEDDING * vocabSize);
  const first = chain[0] ?? EOS_ID;
  output[first * EMBEDDING] = FINISHING_LOGIT_WEIGHT;
  chain.forEach((token, i) => {
    const next = chain[i + 1] ?? EOS_ID;
    output[next * EMBEDDING + i + 1] = FINISHING_LOGIT_WEIGHT;
  });
  // Second choices, for when a grammar (JSON output, function arguments) forbids the first: close
  // what is open and end, so constrained answers end too. Far below the first choice (at most 4
  // against 24), so free text never takes them. Without them every other token ties at 0 and the
  // lowest id wins, a space: a JSON answer would never close.
  for (const channel of [0, chain.length]) {
    for (const [byte, weight] of SECOND_CHOICES) output[byteToken(byte) * EMBEDDING + channel] = weight;
    if (channel === 0) output[EOS_ID * EMBEDDING] = 0.5;
  }
  const zeros = (n: number): Float32Array => new Float32Array(n);
  const small = (n: number): Float32Array => Float32Array.from({ length: n }, () => (random() * 2 - 1) * 0.1);
  const ones = (n: number): Float32Array => new Float32Array(n).fill(1);
  const tensors: Tensor[] = [{ name: 'token_embd.weight', shape: [EMBEDDING, vocabSize], data: embedding }];
  for (let layer = 0; layer < LAYERS; layer++) {
    const p = `blk.${layer}.`;
    const square = EMBEDDING * EMBEDDING;
    const wide = EMBEDDING * FEED_FORWARD;
    // qwen3 normalizes each head's query and key.
    const headDim = EMBEDDING / TINY_DIMS.heads;
    if (thinks)
      tensors.push(
        { name: `${p}attn_q_norm.weight`, shape: [headDim], data: ones(headDim) },
        { name: `${p}attn_k_norm.weight`, shape: [headDim], data: ones(headDim) },
      );
    tensors.push(
      { name: `${p}attn_norm.weight`, shape: [EMBEDDING], data: ones(EMBEDDING) },
      { name: `${p}attn_q.weight`, shape: [EMBEDDING, EMBEDDING], data: small(square) },
      { name: `${p}attn_k.weight`, shape: [EMBEDDING, EMBEDDING], data: small(square) },
      { name: `${p}attn_v.weight`, shape: [EMBEDDING, EMBEDDING], data: small(square) },
      // Zero: attention adds nothing to the residual stream.
      { name: `${p}attn_output.weight`, shape: [EMBEDDING, EMBEDDING], data: zeros(square) },
      { name: `${p}ffn_norm.weight`, shape: [EMBEDDING], data: ones(EMBEDDING) },
      { name: `${p}ffn_gate.weight`, shape: [EMBEDDING, FEED_FORWARD], data: small(wide) },
      { name: `${p}ffn_up.weight`, shape: [EMBEDDING, FEED_FORWARD], data: small(wide) },
      // Zero: nor does the feed-forward block.
      { name: `${p}ffn_down.weight`, shape: [FEED_FORWARD, EMBEDDING], data: zeros(wide) },
    );
  }
  tensors.push(
    { name: 'output_norm.weight', shape: [EMBEDDING], data: ones(EMBEDDING) },
    { name: 'output.weight', shape: [EMBEDDING, vocabSize], data: output },
  );
  return tensors;
}

const FINISHING_LOGIT_WEIGHT = 3;
/** After the answer or after anything else: a string closes, then an object or array, `{` and `:` open and separate. */
const SECOND_CHOICES: ReadonlyArray<readonly [number, number]> = [
  [0x22, 0.375], // "
  [0x7d, 0.25], // }
  [0x5d, 0.25], // ]
  [0x7b, 0.125], // {
  [0x3a, 0.125], // :
];
