import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { add } from '../../src/decimal.js';
import { startStack, type Stack } from '../helpers/stack.js';

// `npm run drill` against a stack of this test's own (the sandbox, the ingress and a worker): a
// short drill passes with its exact last line; a deposit the provider credits without any record
// a callback or a poll could show makes it fail, naming the wallet and both balances; and it
// refuses a provider that is not the sandbox, naming the setting.

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  lastLine: string;
}

describe('npm run drill', () => {
  let stack: Stack;
  let dir: string;
  before(async () => {
    stack = await startStack();
    dir = mkdtempSync(join(tmpdir(), 'payflows-drill-'));
  });
  after(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the drill; `onLine` sees each line of its output as it comes. */
  function drill(args: string[], env: Record<string, string> = {}, onLine?: (line: string) => void): Promise<Ran> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/drill.ts', ...args], {
      env: { ...process.env, ...stack.workerEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const before = stdout.length;
      stdout += chunk.toString();
      for (const line of stdout
        .slice(stdout.lastIndexOf('\n', before) + 1)
        .split('\n')
        .slice(0, -1))
        onLine?.(line);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve) =>
      child.on('exit', (code) =>
        resolve({ code, stdout, stderr, lastLine: stdout.trimEnd().split('\n').at(-1) ?? '' }),
      ),
    );
  }

  it('passes on a healthy stack: every wallet exact, with the report and the plot', async () => {
    const svg = join(dir, 'pass.svg');
    const ran = await drill([
      '--wallets',
      '3',
      '--minutes',
      '0.3',
      '--settle',
      '60',
      '--chaos',
      'true',
      '--every',
      '5',
      '--svg',
      svg,
    ]);
    assert.equal(ran.lastLine, 'drill: exact 3/3 wallets, 0 counted twice, 0 stuck', `${ran.stdout}\n${ran.stderr}`);
    assert.equal(ran.code, 0, ran.stderr);
    // Every dropped callback's transaction was found by a poll; the chaos command ran.
    assert.match(ran.stdout, /callbacks dropped +([1-9]\d*) \/ \1\n/);
    assert.match(ran.stdout, /chaos runs +[1-9]\d* \(0 failed\)/);
    assert.match(ran.stdout, /callback to counted: p50 \d+ ms, p99 \d+ ms/);
    assert.match(readFileSync(svg, 'utf8'), /^<svg [^]*<circle [^]*<\/svg>\n$/);
  });

  it('fails, naming the wallet and both balances, when the provider holds a deposit no callback or poll shows', async () => {
    let walletIds: string[] = [];
    let lost: Promise<unknown> | undefined;
    const ran = await drill(
      ['--wallets', '3', '--minutes', '0.2', '--settle', '30', '--svg', join(dir, 'fail.svg')],
      {},
      (line) => {
        const listed = /^\[drill\] wallets: (.+)$/.exec(line);
        if (!listed) return;
        walletIds = listed[1]!.split(' ');
        // A balance credited by hand at the provider: no transaction, no callback, nothing a poll lists.
        lost = stack.op('POST', `/sandbox/wallets/${walletIds[1]}/balance-adjustments`, {
          currency: 'BTC',
          amount: '0.00012345',
        });
      },
    );
    await lost;
    const differs = /^drill: wallet (\S+) differs: BTC ledger (\S+), provider (\S+)$/.exec(ran.lastLine);
    assert.ok(differs, `the last line names the wallet: ${ran.stdout}\n${ran.stderr}`);
    assert.equal(differs[1], walletIds[1]);
    assert.equal(differs[3], add(differs[2]!, '0.00012345'));
    assert.equal(ran.code, 1);
  });

  it('refuses a provider that is not the sandbox, naming PROVIDER_BASE_URL', async () => {
    const ran = await drill(['--wallets', '2', '--minutes', '1'], { PROVIDER_BASE_URL: stack.ingressUrl });
    assert.notEqual(ran.code, 0);
    assert.match(ran.stderr, /PROVIDER_BASE_URL \(http:\/\/[^)]+\) is not the sandbox/);
  });
});
