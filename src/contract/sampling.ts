// What a request's temperature and output limit may be: the ranges the Responses request checks
// (responses.ts) and the GUI's chat settings check before saving, declared once. Kept apart from
// responses.ts so the GUI's chat screen loads these two ranges, not the whole request contract.
import { z } from 'zod/v3';

/** The output limit is checked against the model's own context when the turn is accepted. */
export const MAX_OUTPUT_TOKENS_BOUND = 1_000_000;

export const Temperature = z.number().min(0).max(2);
export const MaxOutputTokens = z.number().int().min(1).max(MAX_OUTPUT_TOKENS_BOUND);
