// POST /v1/embeddings on the wire: OpenAI's Embeddings API, which every RAG stack speaks (the openai
// SDK, LangChain's and LlamaIndex's embeddings, the AI SDK's embed). Strict like the other doors:
// an unknown field is a 400 naming it. Vectors are not stored: there is nothing to keep.
import { z } from 'zod/v3';

/** OpenAI's limit of inputs in one request. */
export const MAX_EMBEDDING_INPUTS = 2048;

const Tokens = z.array(z.number().int().min(0)).min(1);

export const createEmbeddingBody = z
  .object({
    model: z.string().min(1).max(256),
    input: z.union([
      z.string().min(1, 'must not be empty'),
      z.array(z.string().min(1, 'must not be empty')).min(1).max(MAX_EMBEDDING_INPUTS),
      Tokens,
      z.array(Tokens).min(1).max(MAX_EMBEDDING_INPUTS),
    ]),
    encoding_format: z.enum(['float', 'base64']).optional(),
    /** Honoured only as the model's own size: a local model's vectors cannot be shortened. */
    dimensions: z.number().int().min(1).optional(),
    user: z.string().optional(),
  })
  .strict();
export type CreateEmbeddingBody = z.infer<typeof createEmbeddingBody>;

export interface EmbeddingObject {
  object: 'embedding';
  index: number;
  /** The vector, or its float32 little-endian bytes in base64 (`encoding_format: "base64"`). */
  embedding: number[] | string;
}

export interface EmbeddingList {
  object: 'list';
  data: EmbeddingObject[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}
