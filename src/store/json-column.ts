// A JSON value kept in a TEXT column or a config row, read back through its schema: anything that
// does not parse or does not match (a row written by a newer Sanad, a damaged value) reads as null,
// never as an exception in the middle of a status answer.
import type { z } from 'zod/v3';

export function parseJsonColumn<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, text: string | null | undefined): T | null {
  if (text === null || text === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
