import { closeSync, fchmodSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// What a backend needs to use a cluster started by `npm run cluster`, in one file that a shell
// sources (`set -a; . <dir>/client.env`) and `node --env-file` reads: Temporal, the payload key,
// the claim store the workers read and its key, and the sandbox (for `npm run demo`). The keys
// are also in files of their own. Every file is readable by its owner only: it holds keys.

export interface ClientSettings {
  temporalAddress: string;
  /** How a client is let in where Temporal authorizes: TLS to its frontends, the services' client credentials (TEMPORAL_TLS_*, TEMPORAL_OAUTH_*). */
  temporalAccess?: Record<string, string>;
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
    ...(s.temporalAccess && Object.keys(s.temporalAccess).length > 0
      ? [
          "# Temporal authorizes: TLS to its frontends (this run's CA) and a service's token, fetched by client credentials.",
          ...Object.entries(s.temporalAccess).map(([name, value]) => `${name}='${value}'`),
        ]
      : []),
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
  writeOwnerOnly(files.clientEnv, clientEnv(s));
  writeOwnerOnly(files.payloadKey, s.payloadKey);
  writeOwnerOnly(files.claimKey, s.claimKey);
  return files;
}

/**
 * Writes `text` to `path`, mode 0600 whether or not the file existed: a mode given to writeFileSync
 * applies only to a file it creates. Opened (and emptied) first, made 0600, then written, so the
 * key is never in a file others can read.
 */
function writeOwnerOnly(path: string, text: string): void {
  const fd = openSync(path, 'w', 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
