import { Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { parseAllDocuments } from 'yaml';
import { unknownFields } from './kubernetes-unknown-fields.js';

// Rendered Kubernetes manifests, parsed and checked against the Kubernetes API's schemas that the
// kubernetes-models package carries (its validators are compiled in: nothing is fetched), and
// refused for any field those schemas do not define.

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec: Record<string, unknown>;
}

/** The kinds the chart may render, by apiVersion and kind, with their schema; anything else is an error. */
const MODELS: Record<string, { Model: new (data: never) => { validate(): void }; schema: string }> = {
  'apps/v1 Deployment': { Model: Deployment, schema: 'IoK8sApiAppsV1Deployment' },
  'v1 Service': { Model: Service, schema: 'IoK8sApiCoreV1Service' },
  'policy/v1 PodDisruptionBudget': { Model: PodDisruptionBudget, schema: 'IoK8sApiPolicyV1PodDisruptionBudget' },
};

/** Every document of a multi-document YAML text, empty ones left out; a YAML error throws. */
export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length) throw new Error(`the render is not YAML: ${doc.errors[0]!.message}`);
    const value = doc.toJS() as Manifest | null;
    return value === null ? [] : [value];
  });
}

/** Throws, naming the object and the field, unless the manifest is a known kind that its schema accepts. */
export function validateManifest(manifest: Manifest): void {
  const which = `${manifest.apiVersion} ${manifest.kind}`;
  const known = MODELS[which];
  if (!known) throw new Error(`${which} ${manifest.metadata?.name}: a kind the check does not know`);
  try {
    new known.Model(manifest as never).validate();
  } catch (err) {
    throw new Error(`${which} ${manifest.metadata.name}: ${(err as Error).message}`);
  }
  const unknown = unknownFields(manifest, known.schema);
  if (unknown.length)
    throw new Error(`${which} ${manifest.metadata.name}: fields the API does not define: ${unknown.join(', ')}`);
}

const QUANTITY_UNITS: Record<string, number> = {
  '': 1,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
};

/** A Kubernetes memory quantity in bytes, as the API reads it (`2Gi`, `512M`, `1000000`). */
export function memoryQuantityBytes(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(quantity);
  if (!match) throw new Error(`${quantity} is not a memory quantity this check reads`);
  return Number(match[1]) * QUANTITY_UNITS[match[2] ?? '']!;
}
