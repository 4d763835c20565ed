import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// Fields the Kubernetes API does not define, found in an object (a misspelt `imagePullPolice`, a
// `replica` for `replicas`): the schemas kubernetes-models compiled leave unknown fields alone, as
// the OpenAPI schemas do, while the API server drops them (or refuses them, with strict field
// validation). Read from the same compiled validators: each object validator names the fields it
// checks (`data.<field>`) and the validator of each.

const SCHEMAS = join(dirname(createRequire(import.meta.url).resolve('kubernetes-models/package.json')), '_schemas');

interface Module {
  /** Each validator function of the file, by name: its source up to the next one. */
  functions: Map<string, string>;
  /** Validators imported from other files, by their local name: the file. */
  imports: Map<string, string>;
  /** The file's exported validator. */
  main: string;
}

const modules = new Map<string, Module>();

/** A bare specifier's file, found as Node finds packages: in node_modules folders up from `from`. */
function packageFile(from: string, specifier: string): string {
  for (let dir = dirname(from); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', `${specifier}.mjs`);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`${specifier}, imported by ${from}, is not installed`);
}

function load(file: string): Module {
  const known = modules.get(file);
  if (known) return known;
  const text = readFileSync(file, 'utf8');
  const imports = new Map<string, string>();
  for (const [, name, from] of text.matchAll(/import\{validate as (validate\d+)\}from"([^"]+)"/g))
    imports.set(name!, from!.startsWith('.') ? join(dirname(file), from!) : packageFile(file, from!));
  const starts = [...text.matchAll(/function (validate\d+)\(data/g)];
  const functions = new Map(starts.map((s, i) => [s[1]!, text.slice(s.index, starts[i + 1]?.index ?? text.length)]));
  const main = /export const validate=function (validate\d+)/.exec(text)?.[1];
  if (!main) throw new Error(`${file} exports no validator`);
  const module = { functions, imports, main };
  modules.set(file, module);
  return module;
}

/** Where a validator called in `file` is defined: this file or the one it is imported from. */
function locate(file: string, name: string | undefined): [file: string, name: string] | undefined {
  if (!name) return undefined;
  const module = load(file);
  if (module.functions.has(name)) return [file, name];
  const other = module.imports.get(name);
  return other ? [other, load(other).main] : undefined;
}

function collect(value: unknown, [file, name]: [string, string], path: string, found: string[]): void {
  const body = load(file).functions.get(name)!;
  const fields = new Set([...body.matchAll(/\bdata\.([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!));
  if (fields.size === 0) {
    // A wrapper (nullable, a reference) hands the same value on; a map or a scalar has no fields.
    const next = locate(file, /(?<!function )(validate\d+)\(data,/.exec(body)?.[1]);
    if (next) collect(value, next, path, found);
    return;
  }
  if (Array.isArray(value)) {
    const item = locate(file, /(validate\d+)\(data\[i\d+\]/.exec(body)?.[1]);
    if (item) value.forEach((v, i) => collect(v, item, `${path}/${i}`, found));
    return;
  }
  if (!value || typeof value !== 'object') return;
  for (const [field, v] of Object.entries(value)) {
    if (!fields.has(field)) {
      found.push(`${path}/${field}`);
      continue;
    }
    const next = locate(file, new RegExp(`(validate\\d+)\\(data\\.${field.replace(/\$/g, '\\$')}\\b`).exec(body)?.[1]);
    if (next) collect(v, next, `${path}/${field}`, found);
  }
}

/** The paths of fields in `value` that the schema named (e.g. IoK8sApiAppsV1Deployment) does not define. */
export function unknownFields(value: unknown, schema: string): string[] {
  const file = join(SCHEMAS, `${schema}.mjs`);
  const found: string[] = [];
  collect(value, [file, load(file).main], '', found);
  return found;
}
