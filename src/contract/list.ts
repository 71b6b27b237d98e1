// The one shape of every list answer: `{ "object": "list", "data": [...] }` (the server may add more).
import { z } from 'zod/v3';

export function listOf<T extends z.ZodTypeAny>(item: T) {
  return z.object({ data: z.array(item) }).passthrough();
}
