import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { POSITIVE_DECIMAL } from '../workflows/lib/messages.schema.js';
import { amount, positiveAmount } from '../src/provider/schemas/common.js';
import { PROCESSES, type ProcessDescription, type WorkflowDescription } from './lib/message-processes.js';

// schemas/messages/<process>.json: the processes' messages as JSON Schema 2020-12, from the zod
// schemas with zod's own z.toJSONSchema, for backends in other languages (docs/other-languages.md).
// What a workflow checks comes from its check (workflows/<process>/checks.ts), whose zod schema
// workflows/lib/zod-from-check.schema.ts builds.
// `--check` fails when a file differs from what the schemas make now (lint runs it).

export const DIR = 'schemas/messages';
const BASE = 'https://payflows.dev/schemas/messages';
type JsonSchema = Record<string, unknown>;

// An amount a caller sends: zod also takes a JSON number (its digits kept by src/json.ts), which
// other languages would read as a float: the schema asks for the decimal string only.
const amountInput = amount._zod.def.in;
const unrepresentable = ({ zodSchema, message }: { zodSchema: unknown; message: string }) => {
  if (zodSchema === amountInput)
    return { type: 'string', pattern: '^[+-]?[0-9]+(?:\\.[0-9]+)?$', description: 'an exact decimal string' };
  throw new Error(`${message}: give it a JSON Schema in scripts/message-schemas.ts`);
};
const override = ({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: JsonSchema }) => {
  if (zodSchema === positiveAmount) {
    jsonSchema.pattern = POSITIVE_DECIMAL.source;
    jsonSchema.description = 'a positive exact decimal string such as "49.99"';
  }
};

/** Each schema under its $defs name, as z.toJSONSchema writes a registry; references between them as $refs. */
function defsOf(schemas: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: written } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    uri: (id) => `#/$defs/${id}`,
    unrepresentable,
    override,
  } as Parameters<typeof z.toJSONSchema>[1]) as { schemas: Record<string, JsonSchema> };
  // Each is written as a document of its own: inside one, $schema and $id belong to the file.
  return Object.fromEntries(
    Object.entries(written).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [id, schema]),
  );
}

const ref = (name: string) => `#/$defs/${name}`;
// Only what is special outside a class: `\-` would be refused by a JavaScript validator's unicode regexes.
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const unanchored = (pattern: string) => pattern.replace(/^\^/, '').replace(/\$$/, '');

/** The workflow id's template (`kyc:{accountId}`) and pattern, from the id function and the input field's pattern. */
function workflowId(wf: WorkflowDescription, defs: Record<string, JsonSchema>) {
  const template = wf.workflowId(`{${wf.idField}}`);
  const field = (defs[wf.input]?.properties as Record<string, JsonSchema> | undefined)?.[wf.idField];
  if (!field) throw new Error(`${wf.type}: its input ${wf.input} has no field ${wf.idField} to make its id of`);
  const inner = typeof field.pattern === 'string' ? `(?:${unanchored(field.pattern)})` : '.+';
  const [before, after] = template.split(`{${wf.idField}}`) as [string, string];
  return { template, pattern: `^${escapeRegex(before)}${inner}${escapeRegex(after)}$` };
}

function described(wf: WorkflowDescription, defs: Record<string, JsonSchema>) {
  return {
    workflowId: workflowId(wf, defs),
    input: ref(wf.input),
    result: ref(wf.result),
    queries: Object.fromEntries((wf.queries ?? []).map((q) => [q.definition.name, { answer: ref(q.answer) }])),
    updates: Object.fromEntries(
      (wf.updates ?? []).map((u) => [u.definition.name, { args: u.args.map(ref), answer: ref(u.answer) }]),
    ),
    signals: Object.fromEntries((wf.signals ?? []).map((s) => [s.definition.name, { args: s.args.map(ref) }])),
    failures: Object.fromEntries(
      wf.failures.map((f) => [f.type, { when: f.when, ...(f.details ? { details: ref(f.details) } : {}) }]),
    ),
  };
}

/** One process's file: its description under x-payflows, its messages under $defs (sorted by name). */
export function processSchema(p: ProcessDescription): JsonSchema {
  const inputs = defsOf(p.inputs, 'input');
  const outputs = defsOf(p.outputs, 'output');
  for (const name of Object.keys(inputs))
    if (name in outputs) throw new Error(`${p.process}: ${name} is named both as an input and as an answer`);
  const defs: Record<string, JsonSchema> = { ...inputs, ...outputs };
  for (const [alias, name] of Object.entries(p.aliases ?? {}))
    defs[alias] = { $ref: ref(name), description: `Another name for ${name}.` };
  for (const wf of p.workflows)
    for (const name of [wf.input, wf.result, ...wf.failures.flatMap((f) => (f.details ? [f.details] : []))])
      if (!(name in defs)) throw new Error(`${p.process}: ${wf.type} names ${name}, which is not in its $defs`);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${BASE}/${p.process}.json`,
    title: `payflows: ${p.title}`,
    description: `${p.description} Compile #/$defs/<Name>: inputs as a caller sends them, answers and results as the workflows return them.`,
    'x-payflows': { workflows: Object.fromEntries(p.workflows.map((wf) => [wf.type, described(wf, defs)])) },
    $defs: Object.fromEntries(
      Object.keys(defs)
        .sort()
        .map((name) => [name, defs[name]]),
    ),
  };
}

export const fileOf = (p: ProcessDescription) => `${DIR}/${p.process}.json`;
export const textOf = (p: ProcessDescription) => `${JSON.stringify(processSchema(p), null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--check')) {
    const stale = PROCESSES.map(fileOf).filter(
      (file, i) => !existsSync(file) || readFileSync(file, 'utf8') !== textOf(PROCESSES[i]!),
    );
    if (stale.length) {
      console.error(
        `${stale.join(', ')}: not what the checks and zod schemas of workflows/<process>/ make now: run \`npm run schemas\` and commit the difference`,
      );
      process.exit(1);
    }
  } else {
    mkdirSync(DIR, { recursive: true });
    for (const p of PROCESSES) writeFileSync(fileOf(p), textOf(p));
  }
}
