import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { LOCAL_MODULES, TOOLS } from '../../scripts/lib/go-tools.js';
import { CLI_STEP, PREPARE_CHAINS, type PrepareStep, runChain } from '../../scripts/lib/prepare-chains.js';

const names = (chain: readonly PrepareStep[]) => chain.map((s) => s.name);

describe('npm run prepare:tools, its chains', () => {
  it('builds every Go tool and local module exactly once, in one chain or the other', () => {
    const all = Object.values(PREPARE_CHAINS).flatMap(names);
    for (const built of [...Object.values(TOOLS), ...Object.values(LOCAL_MODULES)])
      assert.equal(all.filter((n) => n === built.name).length, 1, `${built.name} in the chains`);
    assert.equal(new Set(all).size, all.length, `a step twice: ${all.join(', ')}`);
  });

  it('builds what reuses the CLI’s packages after the CLI, in its chain: the server, its SQL tool, the UI, the Go backend', () => {
    const cli = names(PREPARE_CHAINS.cli);
    assert.equal(cli[0], CLI_STEP);
    for (const after of [
      LOCAL_MODULES.server.name,
      LOCAL_MODULES.sqlTool.name,
      TOOLS.ui.name,
      LOCAL_MODULES.goBackend.name,
    ])
      assert.ok(cli.indexOf(after) > 0, `${after} after the CLI: ${cli.join(', ')}`);
  });

  it('runs a chain in order, stops at the step that fails and names it', async () => {
    const ran: string[] = [];
    const lines: string[] = [];
    const step = (name: string, fails = false): PrepareStep => ({
      name,
      run: async () => {
        ran.push(name);
        if (fails) throw new Error('exit 2');
      },
    });
    await assert.rejects(
      runChain([step('a'), step('b', true), step('c')], (l) => lines.push(l)),
      /^Error: b failed: exit 2$/,
    );
    assert.deepEqual(ran, ['a', 'b']);
    assert.deepEqual(lines, ['a: ready (0 s)']);
  });

  it('refuses a chain it does not have, naming those it has, and runs nothing', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/prepare-tools.ts', 'helm'], {
      encoding: 'utf8',
    });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /no chain "helm"; the chains are packages, cli, go/);
    assert.doesNotMatch(run.stdout, /ready|building|installing/);
  });
});
