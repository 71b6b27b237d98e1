// GET /admin/diagnostics: the checks of `sanad doctor`, one line each with what to do.
import { z } from 'zod/v3';

export const Diagnostic = z.object({ name: z.string(), status: z.enum(['ok', 'warn', 'fail']), detail: z.string(), fix: z.string().nullable() });
export type Diagnostic = z.infer<typeof Diagnostic>;
export const DiagnosticList = z.object({ object: z.literal('list'), ok: z.boolean(), data: z.array(Diagnostic) });
export type DiagnosticList = z.infer<typeof DiagnosticList>;
