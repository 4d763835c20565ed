import type { z } from 'zod';
import { type Check, InputProblem } from '../../workflows/lib/input-check.js';

// A sample put through a zod schema and through a plain check, answered alike, so that two tests
// can compare what each accepts and refuses.

export type Outcome = { ok: true; value: unknown } | { ok: false; field: string; message: string };

export function viaZod(schema: z.ZodType, sample: unknown): Outcome {
  const parsed = schema.safeParse(sample);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, field: issue.path.map(String).join('.') || 'input', message: issue.message };
}

export function viaCheck(check: Check<unknown>, sample: unknown): Outcome {
  try {
    return { ok: true, value: check(sample, '') };
  } catch (err) {
    if (!(err instanceof InputProblem)) throw err;
    return { ok: false, field: err.field, message: err.message };
  }
}
