import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOCAL_MODULES, TOOLS } from '../../scripts/lib/go-tools.js';
import { PREPARE_STEPS, prepareSteps } from '../../scripts/lib/prepare-steps.js';

// CI starts the cluster suite once `npm run prepare:tools -- cluster-start` is done, and builds the
// rest beside it: a tool the cluster's start needs that is not in that part would be built by the
// suite while the rest builds it too; a Go build with no step at all, by a test under its timeout.

const names = (steps: { name: string }[]) => steps.map((s) => s.name);

describe('the steps of npm run prepare:tools', () => {
  it('prepare every Go build of go-tools.ts, each once', () => {
    const all = names(prepareSteps(undefined));
    for (const build of [...Object.values(LOCAL_MODULES), ...Object.values(TOOLS)])
      assert.ok(all.includes(build.name), `${build.name} has a step`);
    assert.equal(new Set(all).size, all.length);
  });

  it('cluster-start: the Debian packages, the CLI, the server, its SQL tool and the UI; then the rest', () => {
    assert.deepEqual(names(prepareSteps('cluster-start')), [
      'PostgreSQL',
      'Prometheus',
      'HAProxy',
      'Chromium',
      'Temporal CLI',
      LOCAL_MODULES.server.name,
      LOCAL_MODULES.sqlTool.name,
      TOOLS.ui.name,
    ]);
    // The whole run after it only adds: its steps come first.
    const part = prepareSteps('cluster-start').length;
    assert.deepEqual(names(PREPARE_STEPS.slice(0, part)), names(prepareSteps('cluster-start')));
    for (const later of [TOOLS.helm, TOOLS.versitygw, LOCAL_MODULES.goBackend, LOCAL_MODULES.composeConfig])
      assert.ok(!names(prepareSteps('cluster-start')).includes(later.name), `${later.name} is built beside the suite`);
  });

  it('refuses a part that does not exist, naming those there are', () => {
    assert.throws(() => prepareSteps('cluster'), /no part "cluster"; give none \(everything\) or one of cluster-start/);
    assert.throws(() => prepareSteps('toString'), /no part "toString"/);
  });
});
