import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../../src/temporal/ports.js';
import { temporalSettings } from '../helpers/stack.js';

// `npm run demo` and `npm run claims:erase` as a new user runs them, pointed at something that is
// not there: each ends with one line that names what does not answer and what to set, and
// EX_UNAVAILABLE (69), never a stack trace.

const key = () => randomBytes(32).toString('base64');
let claimsDir: string;
let closed: number;

function run(script: string, env: Record<string, string>, args: string[] = []) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: claimsDir, ...env },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

/** One line, no stack trace, the exit code of a service that is not there. */
function oneLine(result: { code: number | null; out: string }, pattern: RegExp): void {
  assert.equal(result.code, 69, result.out);
  const lines = result.out.trim().split('\n');
  assert.equal(lines.length, 1, `one line, not:\n${result.out}`);
  assert.doesNotMatch(result.out, /^\s+at /m, 'no stack trace');
  assert.match(lines[0]!, pattern);
}

before(async () => {
  claimsDir = mkdtempSync(join(tmpdir(), 'reach-'));
  closed = await freePort();
});
after(() => rmSync(claimsDir, { recursive: true, force: true }));

describe('scripts answer what they cannot reach with one line that names what to set', () => {
  const client = () => ({
    PAYLOAD_ENCRYPTION_KEY: key(),
    CLAIM_ENCRYPTION_KEY: key(),
    CLAIM_STORE_DIR: join(claimsDir, 'claims'),
  });

  it('the demo, when Temporal does not answer', async () => {
    const result = await run('scripts/demo.ts', { ...client(), TEMPORAL_ADDRESS: `127.0.0.1:${closed}` });
    oneLine(
      result,
      new RegExp(`^Temporal is not reachable at 127\\.0\\.0\\.1:${closed} .*set TEMPORAL_ADDRESS; .*client\\.env`),
    );
  });

  it('the demo, when the claim store does not answer', async () => {
    const result = await run('scripts/demo.ts', {
      ...client(),
      // The run's Temporal, and on the cluster its TLS and client credentials: it answers.
      ...temporalSettings(),
      CLAIM_STORE_URL: 's3://payflows-claims/demo',
      AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${closed}`,
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
    });
    oneLine(result, /^the claim store is not reachable \(ECONNREFUSED\): check CLAIM_STORE_URL .*AWS_ENDPOINT_URL_S3/);
  });

  it('the demo, when the sandbox does not answer', async () => {
    const result = await run('scripts/demo.ts', {
      ...client(),
      // The run's Temporal, and on the cluster its TLS and client credentials: it answers.
      ...temporalSettings(),
      SANDBOX_PORT: String(closed),
    });
    oneLine(
      result,
      new RegExp(
        `^the sandbox is not reachable at http://127\\.0\\.0\\.1:${closed} \\(ECONNREFUSED\\): .*set SANDBOX_PORT`,
      ),
    );
  });

  it('claims:erase, when the claim store does not answer', async () => {
    const result = await run(
      'scripts/erase-claims.ts',
      {
        CLAIM_ENCRYPTION_KEY: key(),
        CLAIM_STORE_URL: 's3://payflows-claims/demo',
        AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${closed}`,
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
      },
      ['AC_1'],
    );
    oneLine(result, /^the claim store is not reachable \(ECONNREFUSED\), nothing was erased: check CLAIM_STORE_URL/);
  });
});
