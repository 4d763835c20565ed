import type { SizeResult } from './size.js';
import type { TableSize } from './tables.js';
import { TOPOLOGY_NAME, topologyOf } from './topology.js';

// The report's section on where a wallet's database bytes are: by table and index of the main and
// the visibility databases, per wallet, the largest first, each with what it holds (from Temporal's
// PostgreSQL schema, schema/postgresql/v12 of go.temporal.io/server at the server's version).

/** What a row of each table holds. */
const TABLE_HOLDS: Record<string, string> = {
  history_node:
    'a batch of history events of one run (the events one transaction appended), encoded: the workflow histories',
  history_tree: 'a history branch of one run: its tree and branch ids and where it forked',
  executions: 'one run’s mutable state (pending timers, activities, signals, counters, its search attributes, memo)',
  current_executions: 'one workflow id’s current run (the id a client or a signal addresses)',
  transfer_tasks:
    'a transfer task of a shard, to run now (hand a workflow or activity task to matching, a child, a close), deleted once done',
  timer_tasks:
    'a timer task of a shard, due at a time (a workflow’s timer, a task’s or run’s timeout, retention), deleted once fired',
  visibility_tasks: 'a task to write a run’s visibility record, deleted once written',
  history_immediate_tasks: 'a task of a shard queued to run now (transfer, visibility, close), deleted once done',
  history_scheduled_tasks: 'a task of a shard due at a time (a timer, a timeout, retention), deleted once done',
  timer_info_maps: 'one pending timer of a run (the wallet’s next poll or reconciliation)',
  activity_info_maps: 'one pending activity of a run',
  signal_info_maps: 'one signal a run is sending out',
  child_execution_info_maps: 'one child workflow a run started and has not seen close',
  signals_requested_sets: 'the ids of signals a run received, against duplicates',
  buffered_events: 'events that arrived while a workflow task was running, held until it completes',
  tasks: 'a workflow or activity task waiting in a task queue’s backlog (matching)',
  tasks_v2: 'a waiting task of a task queue under fairness scheduling (matching)',
  task_queues: 'a task queue partition’s ack levels and range',
  task_queues_v2: 'a task queue partition’s ack levels and range (fairness)',
  shards: 'one history shard’s range and queue ack levels',
  queue: 'a message of a server queue (replication, namespace)',
  queue_messages: 'a message of a named server queue (DLQ, Nexus)',
  cluster_membership: 'a server process’s heartbeat in the ring',
  executions_visibility:
    'one run as List and Count see it: ids, type, status, times, task queue, memo, search attributes (one per run, closed runs kept until retention)',
};

/** What an entry of an index holds; a visibility `by_*` index is named after the column it orders by. */
function indexHolds(table: string, index: string): string {
  if (index === `${table}_pkey`) return `the primary key: one entry per row of ${table}`;
  if (index.startsWith('by_')) return `one entry per run, ordered by ${index.slice(3)} (a List filter)`;
  if (index === 'default_idx') return 'one entry per run, by close and start time (List’s default order)';
  return `an index of ${table}`;
}

const n0 = (v: number) => Math.round(v).toLocaleString('en');
const n1 = (v: number) => v.toLocaleString('en', { maximumFractionDigits: 1 });
/** A table or index under this share of its database's bytes per wallet in every run is summed into the rest. */
const SHOWN_SHARE = 0.02;
/** The largest indexes of a table named one by one; the rest of its indexes summed. */
const SHOWN_INDEXES = 5;

type Database = 'main' | 'visibility';
const DATABASE_NAME: Record<Database, string> = {
  main: 'main (`temporal`)',
  visibility: 'visibility (`temporal_visibility`)',
};

/** The section, or nothing when no row measured its tables. */
export function tablesSection(rs: SizeResult[]): string[] {
  const measured = rs.filter((r) => r.tables !== undefined);
  if (measured.length === 0) return [];
  const out = [
    '## Database per wallet, by table and index',
    '',
    'Each table’s growth from before the opening to after the idle window, over N: its bytes',
    '(`pg_total_relation_size`: the rows, its indexes, TOAST and the free-space and visibility maps)',
    'and its live and dead rows (`n_live_tup`, `n_dead_tup`: the statistics’ counts; a dead row is a',
    'version an update or delete left, whose bytes stay until vacuum reclaims them), the rows it wrote',
    '(`n_tup_ins`, `n_tup_upd`, `n_tup_hot_upd`, `n_tup_del`: an update that is not HOT adds an entry to',
    'each of the table’s indexes; where no figure is given, the run predates it), then its largest indexes',
    '(`pg_relation_size`). The largest first; a table under 2 % of its database’s bytes per wallet in',
    'every run is summed into “other tables”. What a row holds is read from Temporal’s PostgreSQL schema.',
    '',
  ];
  for (const db of ['main', 'visibility'] as const) out.push(...databaseTable(db, measured));
  return out;
}

function databaseTable(db: Database, rs: SizeResult[]): string[] {
  const per = (r: SizeResult) => new Map(r.tables![db].map((t) => [t.table, t]));
  const maps = rs.map(per);
  const dbPerWallet = rs.map((r) => r.tables![db].reduce((s, t) => s + t.totalBytes, 0) / r.wallets);
  // A table's or index's largest share of its database's bytes per wallet over the runs.
  const share = (bytesOf: (r: SizeResult, i: number) => number) =>
    Math.max(...rs.map((r, i) => bytesOf(r, i) / r.wallets / (dbPerWallet[i] || 1)));
  const names = [...new Set(rs.flatMap((r) => r.tables![db].map((t) => t.table)))];
  const largest = (a: number, b: number) => b - a;
  const tables = names
    .map((name) => ({ name, share: share((_, i) => maps[i]!.get(name)?.totalBytes ?? 0) }))
    .sort((a, b) => largest(a.share, b.share));
  const shown = tables.filter((t) => t.share >= SHOWN_SHARE).map((t) => t.name);
  const rest = names.filter((n) => !shown.includes(n));

  const cell = (f: (r: SizeResult, i: number) => string) => rs.map(f).join(' | ');
  const out = [
    `**${DATABASE_NAME[db]}**, bytes (live rows, dead rows) per wallet:`,
    '',
    `| table or index | what it holds | ${rs.map((r) => `${n0(r.wallets)}, ${TOPOLOGY_NAME[topologyOf(r)]}`).join(' | ')} |`,
    `|---|---|${rs.map(() => '---:').join('|')}|`,
    `| **all tables** | | ${cell((_, i) => `**${n0(dbPerWallet[i]!)} B**`)} |`,
  ];
  for (const name of shown) {
    const of = (i: number): TableSize | undefined => maps[i]!.get(name);
    out.push(
      `| **${name}** | ${TABLE_HOLDS[name] ?? 'see Temporal’s schema'} | ${cell((r, i) => {
        const t = of(i);
        if (!t) return '0 B';
        const other = t.totalBytes - t.heapBytes - t.indexBytes;
        const dead = t.deadRows === undefined ? '' : `, ${n1(t.deadRows / r.wallets)} dead`;
        const w = t.writes;
        const written =
          w === undefined
            ? ''
            : `; written ${n1(w.inserts / r.wallets)} inserted, ${n1(w.updates / r.wallets)} updated (${n1(w.hotUpdates / r.wallets)} HOT), ${n1(w.deletes / r.wallets)} deleted`;
        return `**${n0(t.totalBytes / r.wallets)} B** (${n1(t.liveRows / r.wallets)}${dead}): rows ${n0(t.heapBytes / r.wallets)}, indexes ${n0(t.indexBytes / r.wallets)}, TOAST and maps ${n0(other / r.wallets)}${written}`;
      })} |`,
    );
    const indexNames = [...new Set(rs.flatMap((_, i) => Object.keys(of(i)?.indexes ?? {})))]
      .map((index) => ({ index, share: share((_, i) => of(i)?.indexes[index] ?? 0) }))
      .sort((a, b) => largest(a.share, b.share));
    const named = indexNames.slice(0, SHOWN_INDEXES).map((x) => x.index);
    for (const index of named)
      out.push(
        `| … ${index} | ${indexHolds(name, index)} | ${cell((r, i) => `${n0((of(i)?.indexes[index] ?? 0) / r.wallets)} B`)} |`,
      );
    const others = indexNames.slice(SHOWN_INDEXES).map((x) => x.index);
    if (others.length > 0)
      out.push(
        `| … its ${others.length} other indexes | the rest of its indexes, summed | ${cell((r, i) => `${n0(others.reduce((s, x) => s + (of(i)?.indexes[x] ?? 0), 0) / r.wallets)} B`)} |`,
      );
  }
  if (rest.length > 0)
    out.push(
      `| other tables (${rest.length}) | ${rest.join(', ')} | ${cell((r, i) => `${n0(rest.reduce((s, n) => s + (maps[i]!.get(n)?.totalBytes ?? 0), 0) / r.wallets)} B`)} |`,
    );
  out.push('');
  return out;
}
