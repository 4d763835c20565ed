import { z } from 'zod';
import { positiveAmount } from '../../src/provider/schemas/common.js';
import { brokenRule } from './input-check.js';
import type { Check, FieldsOf, Infer, InferInput, Plain, Spec } from './input-check.js';

// The zod schema of a check (./input-check.ts), built from its description: the clients and the
// ingress validate with it, and schemas/messages/ is written from it (scripts/message-schemas.ts),
// so that each checked message is defined once, as its check. It says what the check says where
// the check has its own words, and zod's words otherwise. Workflow code never imports this module.

/** The zod type of an object's field: optional, defaulted or required, as its check takes it. */
type FieldZod<C> =
  undefined extends InferInput<C>
    ? undefined extends Infer<C>
      ? z.ZodOptional<z.ZodType<Exclude<Infer<C>, undefined>, Exclude<InferInput<C>, undefined>>>
      : z.ZodDefault<z.ZodType<Infer<C>, Exclude<InferInput<C>, undefined>>>
    : ZodOf<C>;
/** The zod type of a check: an object's keeps its shape (for .omit, .shape), others their types. */
export type ZodOf<C> = [FieldsOf<C>] extends [never]
  ? z.ZodType<Infer<C>, InferInput<C>>
  : z.ZodObject<{ -readonly [K in keyof FieldsOf<C>]: FieldZod<FieldsOf<C>[K]> }>;

// One schema per description: one registered by name (scripts/lib/message-processes.ts) is referred to.
const made = new WeakMap<Spec, z.ZodType>();

export function zodFrom<C extends Check<unknown>>(check: C): ZodOf<C> {
  return zodOf(check.spec) as ZodOf<C>;
}

function zodOf(spec: Spec): z.ZodType {
  let schema = made.get(spec);
  if (!schema) made.set(spec, (schema = build(spec)));
  return schema;
}

function build(spec: Spec): z.ZodType {
  switch (spec.kind) {
    case 'string': {
      let schema = z.string();
      if (spec.trim) schema = schema.trim();
      if (spec.minLength !== undefined) schema = schema.min(spec.minLength, spec.tooShort);
      if (spec.maxLength !== undefined) schema = schema.max(spec.maxLength);
      if (spec.pattern !== undefined) schema = schema.regex(new RegExp(spec.pattern), spec.message);
      return schema;
    }
    case 'url':
      return z.url();
    case 'boolean':
      return z.boolean();
    case 'literal':
      return z.literal(spec.value, { message: spec.message });
    case 'oneOf':
      return z.enum(spec.options as [string, ...string[]], { message: spec.message });
    case 'int': {
      let schema = z.number().int();
      if (spec.min !== undefined) schema = schema.min(spec.min, spec.tooSmall);
      if (spec.max !== undefined) schema = schema.max(spec.max, spec.tooBig);
      return schema;
    }
    case 'absent':
      return z.never({ message: spec.message }).optional();
    case 'positiveAmount':
      return positiveAmount;
    case 'optional':
      return zodOf(spec.of).optional();
    case 'default':
      return zodOf(spec.of).default(() => copy(spec.value));
    case 'record':
      return z.record(z.string(), zodOf(spec.of));
    case 'object': {
      const fields = Object.fromEntries(Object.entries(spec.fields).map(([key, field]) => [key, zodOf(field)]));
      const schema = spec.strict ? z.strictObject(fields) : z.object(fields);
      if (!spec.rules.length) return schema;
      return schema.superRefine((value, ctx) => {
        const broken = brokenRule(spec.rules, value);
        if (broken) ctx.addIssue({ code: 'custom', path: [broken.field], message: broken.message });
      });
    }
  }
}

const copy = <T extends Plain>(value: T): T => structuredClone(value) as T;
