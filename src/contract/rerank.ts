// POST /v1/rerank on the wire: the shape llama-server, Jina and Cohere share. A query and documents
// in; each document's relevance score out, most relevant first. Strict like the other doors: an
// unknown field is a 400 naming it. Nothing is stored: a score is made again from its texts.
import { z } from 'zod/v3';

/** Cohere's limit of documents in one request. */
export const MAX_RERANK_DOCUMENTS = 1000;

const Text = z.string().min(1, 'must not be empty');

export const rerankBody = z
  .object({
    model: z.string().min(1).max(256),
    query: Text,
    /** Texts, or Jina's and Cohere's `{ "text": … }` objects. */
    documents: z
      .array(z.union([Text, z.object({ text: Text }).passthrough()]))
      .min(1)
      .max(MAX_RERANK_DOCUMENTS),
    /** How many results to return, the best first (default: all). */
    top_n: z.number().int().min(1).optional(),
    /** Whether each result carries its document's text (Cohere's and Jina's name; default false). */
    return_documents: z.boolean().optional(),
    user: z.string().optional(),
  })
  .strict();
export type RerankBody = z.infer<typeof rerankBody>;

export interface RerankResult {
  /** The document's position in the request. */
  index: number;
  /** 0 to 1: the model's probability that the document answers the query. */
  relevance_score: number;
  /** With `return_documents: true`. */
  document?: { text: string };
}

export interface RerankList {
  id: string;
  object: 'list';
  model: string;
  /** Most relevant first. */
  results: RerankResult[];
  usage: { prompt_tokens: number; total_tokens: number };
}
