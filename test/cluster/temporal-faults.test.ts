import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { connectClients, type ConnectedClients } from '../../src/client/index.js';
import type { ProviderClient } from '../../src/provider/client.js';
import { operatorCalls } from '../../scripts/fixtures/operator.js';
import { drillPlot } from '../../scripts/lib/drill/plot.js';
import { EXPECTED_OUTCOME } from '../../scripts/lib/drill/processes.js';
import { latencyByPhase, phaseTable } from '../../scripts/lib/drill/report.js';
import { type DrillUnderWay, openDrill } from '../../scripts/lib/drill/run.js';
import {
  type ClusterDescription,
  clusterClientEnv,
  clusterDescription,
  clusterProvider,
  killTemporalService,
  restartPostgres,
  startTemporalService,
  temporalServices,
} from '../helpers/cluster.js';

// The drill's traffic on the cluster while its Temporal server loses one process of a service at
// a time: a history process is SIGKILLed and started again after a pause, then a matching
// process, then a frontend, then PostgreSQL restarts. Wallets receive deposits, transfers and
// reversals through the sandbox, and a round of KYC, checkout and onboarding runs starts with each
// phase, so that runs are in flight across every loss. Every wallet ends exact against the
// provider, nothing is counted twice, every run reaches its expected end; the figures (callback
// to counted per phase) are printed for the CI log and quoted in docs/deploying.md.

/** How long each service stays down, and how long the cluster runs whole again before the next loss. */
const LOST_MS = 20_000;
const BACK_MS = 15_000;
/** The processes lost, one at a time. */
const LOSSES = ['history-1', 'matching-1', 'frontend-1'] as const;
/** Traffic for every phase, with room for the starts and the restart (each a few seconds) and a last phase. */
const TRAFFIC_MS = BACK_MS + LOSSES.length * (LOST_MS + BACK_MS) + 2 * BACK_MS + 45_000;
const WALLETS = 10;

describe('losing a Temporal service', () => {
  let cluster: ClusterDescription;
  let clients: ConnectedClients;
  let provider: ProviderClient;
  /** Services this test took down and has not started again (started in `after` if a step failed). */
  const down = new Set<string>();
  before(async () => {
    cluster = clusterDescription();
    clients = await connectClients({
      env: clusterClientEnv(cluster),
      timing: { pollInitialMs: 300, pollMaxMs: 2_000 },
    });
    provider = clusterProvider(cluster);
  });
  after(async () => {
    for (const name of down) await startTemporalService(cluster, name);
    await clients?.close();
    await provider?.close();
  });

  /** The losses, each marked as a phase with a round of runs started in it; the last phase runs to the traffic's end. */
  async function losses(drill: DrillUnderWay): Promise<void> {
    const phase = async (name: string) => {
      drill.record.phase(name);
      drill.record.marks.push({ at: Date.now(), kind: 'chaos', ok: true });
      await drill.startRound();
    };
    await phase('before');
    await sleep(BACK_MS);
    for (const name of LOSSES) {
      await killTemporalService(cluster, name);
      down.add(name);
      await phase(`${name} lost`);
      await sleep(LOST_MS);
      await startTemporalService(cluster, name);
      down.delete(name);
      await phase(`${name} back`);
      await sleep(BACK_MS);
    }
    await phase('PostgreSQL restarted');
    await restartPostgres(cluster);
    await sleep(BACK_MS);
    await phase('after');
    assert.ok(
      drill.until - Date.now() >= BACK_MS,
      `the last phase needs ${BACK_MS / 1000} s of traffic; raise TRAFFIC_MS (the losses took longer than planned)`,
    );
  }

  it(
    'keeps every wallet exact and every run going while a history, a matching and a frontend process are lost, and PostgreSQL restarts',
    { timeout: 8 * 60_000 },
    async (t) => {
      const drill = await openDrill(
        {
          client: clients.temporal,
          clients,
          taskQueue: cluster.taskQueue,
          provider,
          sandbox: operatorCalls(cluster.sandboxUrl),
          say: (line) => t.diagnostic(line),
        },
        {
          run: `faults-${randomUUID().slice(0, 8)}`,
          wallets: WALLETS,
          trafficMs: TRAFFIC_MS,
          settleMs: 120_000,
          // The figures say what a lost service costs, not what the provider's errors do.
          providerErrors: 'off',
          kinds: ['kyc', 'checkout', 'onboarding'],
          // Each phase starts its own round.
          rounds: 0,
        },
      );
      try {
        const { record, verdict, trafficEndedAt } = await drill.run({
          label: `${LOSSES.join(', ')} killed and started again, then PostgreSQL restarted`,
          run: losses,
        });
        const table = phaseTable(latencyByPhase(record, trafficEndedAt));
        // The picture beside the run's logs (kept when a test fails), each phase's start a vertical line.
        const out = process.env.TEST_OUTPUT_DIR ?? join(tmpdir(), 'payflows-test-output');
        mkdirSync(out, { recursive: true });
        const svg = join(out, 'temporal-faults.svg');
        writeFileSync(svg, drillPlot(record, `${WALLETS} wallets, ${LOSSES.join(', ')} lost, PostgreSQL restarted`));
        // The figures in the CI log, whatever the verdict.
        console.log(['callback to counted per phase:', ...table, ...verdict.lines, `plot: ${svg}`].join('\n'));

        assert.equal(
          verdict.lines.at(-1),
          `drill: exact ${WALLETS}/${WALLETS} wallets, 0 counted twice, 0 stuck`,
          verdict.lines.join('\n'),
        );
        assert.equal(verdict.exact, true);
        // A round per phase, each run at its expected end.
        assert.equal(record.processes.length, record.phases.length * 3, JSON.stringify(record.processes));
        for (const run of record.processes) {
          const kind = run.name.split(' ')[0] as keyof typeof EXPECTED_OUTCOME;
          assert.equal(run.outcome, EXPECTED_OUTCOME[kind], `${run.name} ended ${run.outcome}`);
        }
        // Each phase measured something: its row is a figure, not "none".
        for (const row of latencyByPhase(record, trafficEndedAt))
          assert.ok(row.counts > 0, `no callback was counted in phase ${row.phase}:\n${table.join('\n')}`);
        // Every process of the server is up again.
        const services = await temporalServices(cluster);
        assert.deepEqual(
          services.filter((s) => s.pid === null).map((s) => s.name),
          [],
        );
      } finally {
        await drill.cleanUp();
      }
    },
  );
});
