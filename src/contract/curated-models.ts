// The first choice offered in "Get a model": small instruct models in GGUF from well-kept
// repositories, by quantization and size, then small embedding models for apps that search text, shown with no network look-up. The pull verifies each
// file against the sha256 the hub publishes for it (X-Linked-Etag); a `sha256` here, when known,
// must agree with it (the pull refuses a difference). Sizes are as the hub lists them, rounded.
export interface CuratedModel {
  uri: string;
  name: string;
  /** Parameters, as the model card says. */
  params: string;
  quant: string;
  /** Bytes, approximately (the plan says the exact size before anything is downloaded). */
  size: number;
  sha256: string | null;
  license: string;
  /** An embedding model (it makes vectors for POST /v1/embeddings, not text); absent: a chat model. */
  kind?: 'embedding';
}

export const CURATED_MODELS: readonly CuratedModel[] = [
  {
    uri: 'hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q4_k_m.gguf',
    name: 'Qwen2.5 0.5B Instruct',
    params: '0.5B',
    quant: 'Q4_K_M',
    size: 398_000_000,
    sha256: null,
    license: 'Apache-2.0',
  },
  {
    uri: 'hf:bartowski/Llama-3.2-1B-Instruct-GGUF/Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    name: 'Llama 3.2 1B Instruct',
    params: '1B',
    quant: 'Q4_K_M',
    size: 808_000_000,
    sha256: null,
    license: 'Llama 3.2 Community',
  },
  {
    uri: 'hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/qwen2.5-1.5b-instruct-q4_k_m.gguf',
    name: 'Qwen2.5 1.5B Instruct',
    params: '1.5B',
    quant: 'Q4_K_M',
    size: 1_120_000_000,
    sha256: null,
    license: 'Apache-2.0',
  },
  {
    uri: 'hf:bartowski/Llama-3.2-3B-Instruct-GGUF/Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    name: 'Llama 3.2 3B Instruct',
    params: '3B',
    quant: 'Q4_K_M',
    size: 2_020_000_000,
    sha256: null,
    license: 'Llama 3.2 Community',
  },
  {
    uri: 'hf:CompendiumLabs/bge-small-en-v1.5-gguf/bge-small-en-v1.5-q8_0.gguf',
    name: 'BGE small en v1.5',
    params: '33M',
    quant: 'Q8_0',
    size: 36_800_000,
    sha256: null,
    license: 'MIT',
    kind: 'embedding',
  },
  {
    uri: 'hf:nomic-ai/nomic-embed-text-v1.5-GGUF/nomic-embed-text-v1.5.Q8_0.gguf',
    name: 'Nomic Embed Text v1.5',
    params: '137M',
    quant: 'Q8_0',
    size: 146_000_000,
    sha256: null,
    license: 'Apache-2.0',
    kind: 'embedding',
  },
  {
    uri: 'hf:ggml-org/embeddinggemma-300M-GGUF/embeddinggemma-300M-Q8_0.gguf',
    name: 'EmbeddingGemma 300M',
    params: '300M',
    quant: 'Q8_0',
    size: 329_000_000,
    sha256: null,
    license: 'Gemma',
    kind: 'embedding',
  },
];
