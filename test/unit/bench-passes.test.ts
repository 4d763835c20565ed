import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rotatedPasses } from '../../bench/measure.js';

describe('bench: the order of the flows’ passes', () => {
  it('every flow runs once in every place of a round, as many times as the others', () => {
    const flows = 5;
    const passes = rotatedPasses(flows);
    assert.equal(passes.length, flows * flows);
    for (let flow = 0; flow < flows; flow++) {
      const places = passes.flatMap((f, at) => (f === flow ? [at % flows] : []));
      assert.deepEqual(
        places.sort((a, b) => a - b),
        [0, 1, 2, 3, 4],
        `flow ${flow}`,
      );
    }
  });

  it('the first and the last pass are different flows, so no flow takes both ends of the run', () => {
    const passes = rotatedPasses(5);
    assert.notEqual(passes[0], passes.at(-1));
    assert.deepEqual(passes.slice(0, 5), [0, 1, 2, 3, 4]);
  });
});
