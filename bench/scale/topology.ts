import type { TemporalTopology } from '../../scripts/lib/temporal-cluster.js';

// The Temporal server's topologies the scale run compares, each size measured on each: one process
// with every service in it, and the services as separate processes behind a load balancer (both
// as scripts/lib/temporal-cluster.ts starts them).

export type Topology = TemporalTopology;

/** In the order a size runs them, and the columns of the report. */
export const TOPOLOGIES: readonly Topology[] = ['single', 'services'];

/** How the report names each in its columns and rows. */
export const TOPOLOGY_NAME: Record<Topology, string> = {
  single: 'single process',
  services: 'separate services',
};

/** A result's topology: a row without one was measured on the single process. */
export const topologyOf = (r: { topology?: Topology }): Topology => r.topology ?? 'single';

/** Results in the run's order: by size, then topology. */
export const byRun = (a: { wallets: number; topology?: Topology }, b: { wallets: number; topology?: Topology }) =>
  a.wallets - b.wallets || TOPOLOGIES.indexOf(topologyOf(a)) - TOPOLOGIES.indexOf(topologyOf(b));

/** `SCALE_TOPOLOGIES`: which to measure, comma-separated; both unless set. Checked before anything starts. */
export function topologiesSetting(env = process.env): Topology[] {
  const raw = env.SCALE_TOPOLOGIES ?? '';
  if (raw === '') return [...TOPOLOGIES];
  const named = raw.split(',').map((s) => s.trim());
  const unknown = named.filter((s) => !TOPOLOGIES.includes(s as Topology));
  if (unknown.length > 0 || new Set(named).size !== named.length)
    throw new Error(`SCALE_TOPOLOGIES takes ${TOPOLOGIES.join(' and/or ')}, comma-separated, each once, got "${raw}"`);
  // In the run's order whatever the order given.
  return TOPOLOGIES.filter((t) => named.includes(t));
}
