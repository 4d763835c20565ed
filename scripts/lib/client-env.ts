import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

// What a backend needs to use a cluster started by `npm run cluster`, in one file that a shell
// sources (`set -a; . <dir>/client.env`) and `node --env-file` reads: Temporal, the payload key,
// the claim store the workers read and its key, and the sandbox (for `npm run demo`). The keys
// are also in files of their own. Every file is readable by its owner only: it holds keys.

export interface ClientSettings {
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  payloadKey: string;
  claimsDir: string;
  claimKey: string;
  sandboxPort: string;
  uiPort: string;
}

/** The variables, in the order a person reads them. */
export function clientEnv(s: ClientSettings): string {
  const lines = [
    '# A backend client of this cluster (payflows/client, npm run demo): set -a; . this file',
    `TEMPORAL_ADDRESS='${s.temporalAddress}'`,
    `TEMPORAL_NAMESPACE='${s.namespace}'`,
    `TEMPORAL_TASK_QUEUE='${s.taskQueue}'`,
    `PAYLOAD_ENCRYPTION_KEY='${s.payloadKey}'`,
    "# The claim store the workers read, and their claim key: a client's claims must be theirs.",
    `CLAIM_STORE_DIR='${s.claimsDir}'`,
    `CLAIM_ENCRYPTION_KEY='${s.claimKey}'`,
    "# The cluster's sandbox provider (the demo plays its reviewers) and Web UI.",
    `SANDBOX_PORT='${s.sandboxPort}'`,
    `TEMPORAL_UI_PORT='${s.uiPort}'`,
  ];
  return `${lines.join('\n')}\n`;
}

/** Writes client.env, payload.key and claim.key into `dir`, mode 0600; their paths. */
export function writeClientFiles(dir: string, s: ClientSettings) {
  const files = {
    clientEnv: join(dir, 'client.env'),
    payloadKey: join(dir, 'payload.key'),
    claimKey: join(dir, 'claim.key'),
  };
  writeFileSync(files.clientEnv, clientEnv(s), { mode: 0o600 });
  writeFileSync(files.payloadKey, s.payloadKey, { mode: 0o600 });
  writeFileSync(files.claimKey, s.claimKey, { mode: 0o600 });
  return files;
}
