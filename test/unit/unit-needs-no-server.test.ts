import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { serverNeeds } from '../helpers/server-needs.js';

// `npm run test:unit` runs test/unit with no Temporal server and no workflow bundle, in one
// process. A unit test that starts a stack, a worker or a bundle belongs in test/integration.

describe('test/unit needs no server', () => {
  it('no unit test starts Temporal, a worker or a workflow bundle', () => {
    const offenders = readdirSync('test/unit')
      .filter((f) => f.endsWith('.test.ts') && f !== 'unit-needs-no-server.test.ts')
      .flatMap((f) => serverNeeds(readFileSync(join('test/unit', f), 'utf8')).map((what) => `test/unit/${f} ${what}`));
    assert.deepEqual(offenders, [], 'move these to test/integration');
  });

  it('recognises what needs a server', () => {
    assert.deepEqual(serverNeeds("import { replayFiles } from '../../scripts/replay.js';"), [
      'bundles or replays workflows',
    ]);
    assert.deepEqual(serverNeeds("import { startStack } from '../helpers/stack.js';"), [
      'starts a stack or a worker process',
    ]);
    assert.deepEqual(serverNeeds('await Worker.create({ taskQueue })'), ['needs Temporal']);
    assert.deepEqual(serverNeeds("const client = await connectClient(config, 'ingress');"), ['needs Temporal']);
    assert.deepEqual(serverNeeds("import { decimal } from '../../src/decimal.js';"), []);
  });
});
