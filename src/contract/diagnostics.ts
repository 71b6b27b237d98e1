// GET /admin/diagnostics: the checks of `sanad doctor`, one line each with what to do.
// `detail` and `fix` are English; `code`/`params` and `fix_said` let the GUI word them.
import { z } from 'zod/v3';
import { Said, SaidParams } from './said.js';

export const Diagnostic = z.object({
  name: z.string(),
  status: z.enum(['ok', 'warn', 'fail']),
  code: z.string(),
  params: SaidParams,
  detail: z.string(),
  fix: z.string().nullable(),
  fix_said: Said.nullable(),
});
export type Diagnostic = z.infer<typeof Diagnostic>;
export const DiagnosticList = z.object({ object: z.literal('list'), ok: z.boolean(), data: z.array(Diagnostic) });
export type DiagnosticList = z.infer<typeof DiagnosticList>;
