import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { withFreshBuild } from '../helpers/fresh-build.js';
import { startStack, type Stack, temporalSettings } from '../helpers/stack.js';

// The package as a backend installs it: built, packed with `npm pack`, installed from the tarball
// (once, for a plain JavaScript ES-module project and a strict TypeScript project), and the README's
// example run as written from each, against a real stack.

const README = readFileSync('README.md', 'utf8');
const EXAMPLE = /<!-- package-example:start -->\n+```js\n([\s\S]*?)```\n+<!-- package-example:end -->/.exec(
  README,
)?.[1];
// The provider client's example: type-checked only (it needs the provider's credentials, which it leaves to the reader).
const PROVIDER_EXAMPLE = /<!-- provider-example:start -->\n+```ts\n([\s\S]*?)```\n+<!-- provider-example:end -->/.exec(
  README,
)?.[1];
const PROVIDER_EXAMPLE_GIVENS =
  'declare const baseUrl: string;\ndeclare const apiKey: string;\ndeclare const secretKey: string;\n';
// A backend names what it passes to the processes and gets back, importing the types from payflows/client.
const NAMED_TYPES = `import type { CheckoutInput, CheckoutOutcome, CheckoutResult, CheckoutState, ConnectedClients, KycOutcome, KycState, OnboardingResult, OpenWalletResult, OpenWalletRequest, Reconciliation, TimingInput, WalletView } from 'payflows/client';

export const order: Omit<CheckoutInput, 'timing'> = { orderRef: 'order-1', sourceAmount: 25, sourceCurrency: 'USD', destCurrency: 'BTC', dest: 'wallet:WA_1' };
export const outcomes: Array<CheckoutOutcome | KycOutcome> = ['OVER_LIMIT', 'ATTEMPTS_EXHAUSTED'];
export const timing: TimingInput = { pollInitialMs: 1_000 };
export const request: OpenWalletRequest = { name: 'user-4711', type: 'SAVINGS' };
export async function read(c: ConnectedClients, walletId: string) {
  const opened: OpenWalletResult = await c.wallets.open(request);
  const view: WalletView = await c.wallets.state(walletId);
  const checked: Reconciliation = await c.wallets.reconcile(walletId);
  const kyc: KycState = await c.kyc.state('AC_1');
  const state: CheckoutState = await c.checkout.state(order.orderRef);
  const result: CheckoutResult = await c.checkout.result(order.orderRef);
  const onboarded: OnboardingResult = await c.onboarding.result('user-1');
  return { opened, confirmed: view.balances['BTC']?.confirmed, drift: checked.drift, fields: kyc.fields.map((f) => f.reason?.message), state: state.stage, reason: result.failureReason, limits: onboarded.limits };
}
`;
// The stack runs in this process: a consumer runs beside it, never blocking its event loop.
const run = async (file: string, args: string[], opts: { cwd: string; env: Record<string, string> }) =>
  (await promisify(execFile)(file, args, { ...opts, encoding: 'utf8', timeout: 60_000 })).stdout;
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd,
    stdio: 'pipe',
    encoding: 'utf8',
  });

describe('the package, installed from its tarball', () => {
  let stack: Stack;
  let tarball: string;
  let root: string;
  let nodeModules: string;
  before(async () => {
    stack = await startStack();
    root = mkdtempSync(join(tmpdir(), 'payflows-package-'));
    await withFreshBuild(() => npm(['pack', '--pack-destination', root], process.cwd()));
    tarball = join(
      root,
      readdirSync(root).find((f) => f.endsWith('.tgz'))!,
    );
    // One install from the tarball for both projects (each links its node_modules to it): an
    // install is most of this file's time, and the two would fetch the same tree.
    const versions = JSON.parse(readFileSync('package.json', 'utf8')) as { devDependencies: Record<string, string> };
    const installed = join(root, 'installed');
    mkdirSync(installed);
    writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: 'backend-deps', private: true }));
    npm(
      [
        'install',
        tarball,
        `typescript@${versions.devDependencies.typescript}`,
        `@types/node@${versions.devDependencies['@types/node']}`,
      ],
      installed,
    );
    nodeModules = join(installed, 'node_modules');
  });
  after(async () => {
    await stack?.stop();
    // The tarball and the consumer's node_modules: hundreds of MB a run, left behind they fill /tmp.
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const consumerEnv = () => ({
    PATH: process.env.PATH ?? '',
    HOME: root,
    // The run's Temporal, and on the cluster its TLS and client credentials.
    ...temporalSettings(),
    TEMPORAL_TASK_QUEUE: stack.taskQueue,
    PAYLOAD_ENCRYPTION_KEY: stack.payloadKey,
    CLAIM_STORE_DIR: stack.claimsDir,
    CLAIM_ENCRYPTION_KEY: stack.workerEnv.CLAIM_ENCRYPTION_KEY,
  });

  function expectRun(output: string, name: string) {
    const [first, second] = output.trim().split('\n');
    const opened = JSON.parse(first!) as { walletId: string; balances: Record<string, unknown> };
    assert.match(opened.walletId, /^WA/);
    assert.deepEqual(opened.balances, {});
    assert.equal(second, 'refused: name');
    assert.ok(stack.sandbox.ctx.store.state.wallets[opened.walletId], `${name}: the wallet exists at the provider`);
  }

  it('the README has the example, importing the package by its documented entry point', () => {
    assert.ok(EXAMPLE, 'README.md has a package-example block');
    assert.match(EXAMPLE, /from 'payflows\/client'/);
    assert.ok(PROVIDER_EXAMPLE, 'README.md has a provider-example block');
    assert.match(PROVIDER_EXAMPLE, /from 'payflows\/provider'/);
    // The exports map refuses deep paths (ERR_PACKAGE_PATH_NOT_EXPORTED): no example may use one.
    assert.doesNotMatch(README, /from 'payflows\/(?!(client|provider|ingress|worker)')/);
  });

  it('a plain JavaScript ES-module project runs the example', async () => {
    const project = join(root, 'js');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'backend-js', private: true, type: 'module' }));
    symlinkSync(nodeModules, join(project, 'node_modules'));
    writeFileSync(join(project, 'example.js'), EXAMPLE!);
    const name = `pkg-js-${randomUUID().slice(0, 8)}`;
    const out = await run(process.execPath, ['example.js'], {
      cwd: project,
      env: { ...consumerEnv(), WALLET_NAME: name },
    });
    expectRun(out, 'js');
    // Nothing needs a TypeScript loader or a deep path.
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules/payflows/package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(manifest.exports).sort(), [
      './client',
      './ingress',
      './package.json',
      './provider',
      './worker',
    ]);
    for (const entry of ['client', 'provider', 'ingress', 'worker']) {
      await run(process.execPath, ['--input-type=module', '-e', `await import('payflows/${entry}')`], {
        cwd: project,
        env: consumerEnv(),
      });
    }
  });

  it('a strict TypeScript project type-checks the examples and the types a backend names, and runs the example', async () => {
    const project = join(root, 'ts');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'backend-ts', private: true, type: 'module' }));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          outDir: 'out',
          types: ['node'],
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
        },
      }),
    );
    symlinkSync(nodeModules, join(project, 'node_modules'));
    writeFileSync(join(project, 'example.ts'), EXAMPLE!);
    writeFileSync(join(project, 'provider-example.ts'), PROVIDER_EXAMPLE_GIVENS + PROVIDER_EXAMPLE!);
    writeFileSync(join(project, 'named-types.ts'), NAMED_TYPES);
    // skipLibCheck as most projects set it: @temporalio/common's declarations import the
    // untyped `ms` package. The example's use of payflows' declarations is checked strictly.
    await run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', '.'], {
      cwd: project,
      env: consumerEnv(),
    }).catch((err: { stdout?: string }) => assert.fail(`tsc: ${err.stdout}`));
    const name = `pkg-ts-${randomUUID().slice(0, 8)}`;
    const out = await run(process.execPath, ['out/example.js'], {
      cwd: project,
      env: { ...consumerEnv(), WALLET_NAME: name },
    });
    expectRun(out, 'ts');
  });
});
