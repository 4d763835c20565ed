import { execFileSync } from 'node:child_process';

// What each table of a Temporal database takes, with its indexes: read from PostgreSQL's own
// figures, before the opening and after the idle window, so that the report says which tables and
// indexes a wallet's bytes are in (bench/scale/tables-report.ts).

/** One table of the public schema: bytes (pg_total_relation_size split) and live rows. */
export interface TableSize {
  table: string;
  /** pg_total_relation_size: the rows, their indexes, TOAST and the free-space and visibility maps. */
  totalBytes: number;
  /** pg_relation_size: the table's own pages (its rows). */
  heapBytes: number;
  /** pg_indexes_size: every index of the table. */
  indexBytes: number;
  /** pg_stat_user_tables.n_live_tup: the statistics' count of live rows (updated as transactions end). */
  liveRows: number;
  /**
   * pg_stat_user_tables.n_dead_tup: row versions an update or delete left until vacuum reclaims
   * them, which the table's bytes still hold (optional: rows of scale.json before it lack it).
   */
  deadRows?: number;
  /**
   * pg_stat_user_tables' row writes since the statistics began: inserts, updates, of which HOT (the
   * new version on the same page, no new index entries) and deletes. An update that is not HOT
   * adds an entry to every index of the table (optional: rows of scale.json before it lack it).
   */
  writes?: { inserts: number; updates: number; hotUpdates: number; deletes: number };
  /** pg_relation_size of each index, by name. */
  indexes: Record<string, number>;
}

/** Each table's figures in one query, as JSON. */
const TABLES_QUERY = `select coalesce(json_agg(json_build_object(
  'table', s.relname,
  'totalBytes', pg_total_relation_size(s.relid),
  'heapBytes', pg_relation_size(s.relid),
  'indexBytes', pg_indexes_size(s.relid),
  'liveRows', s.n_live_tup,
  'deadRows', s.n_dead_tup,
  'writes', json_build_object('inserts', s.n_tup_ins, 'updates', s.n_tup_upd,
                              'hotUpdates', s.n_tup_hot_upd, 'deletes', s.n_tup_del),
  'indexes', (select coalesce(json_object_agg(i.indexrelname, pg_relation_size(i.indexrelid)), '{}')
              from pg_stat_user_indexes i where i.relid = s.relid)
) order by s.relname), '[]') from pg_stat_user_tables s where s.schemaname = 'public'`;

/** The tables of one database, through psql. */
export function tableSizes(psql: { bin: string; host: string; port: number; database: string }): TableSize[] {
  const out = execFileSync(
    psql.bin,
    ['-h', psql.host, '-p', String(psql.port), '-U', 'postgres', '-d', psql.database, '-qAt', '-c', TABLES_QUERY],
    { encoding: 'utf8' },
  );
  try {
    return JSON.parse(out) as TableSize[];
  } catch (err) {
    throw new Error(
      `the table sizes of database ${psql.database} were not JSON (psql answered "${out.slice(0, 200)}"): ${String(err)}`,
    );
  }
}

/**
 * Rewrites every table of the database without its dead row versions and free space (VACUUM FULL),
 * so that what is left is what the rows hold: each row once, each index entry once.
 */
export function compactDatabase(psql: { bin: string; host: string; port: number; database: string }): void {
  execFileSync(
    psql.bin,
    ['-h', psql.host, '-p', String(psql.port), '-U', 'postgres', '-d', psql.database, '-qAt', '-c', 'VACUUM (FULL)'],
    { encoding: 'utf8' },
  );
}

/** The database's bytes: its tables' pg_total_relation_size summed. */
export const totalBytes = (tables: TableSize[]) => tables.reduce((sum, t) => sum + t.totalBytes, 0);

/**
 * What each table grew by from `before` to `after` (a table new since counts from zero): the tables
 * that grew or changed their rows only, each with the indexes that grew.
 */
export function growth(before: TableSize[], after: TableSize[]): TableSize[] {
  const was = new Map(before.map((t) => [t.table, t]));
  return after
    .map((t) => {
      const b = was.get(t.table);
      const indexes = Object.fromEntries(
        Object.entries(t.indexes)
          .map(([name, bytes]) => [name, bytes - (b?.indexes[name] ?? 0)] as const)
          .filter(([, bytes]) => bytes !== 0),
      );
      return {
        table: t.table,
        totalBytes: t.totalBytes - (b?.totalBytes ?? 0),
        heapBytes: t.heapBytes - (b?.heapBytes ?? 0),
        indexBytes: t.indexBytes - (b?.indexBytes ?? 0),
        liveRows: t.liveRows - (b?.liveRows ?? 0),
        ...(t.deadRows === undefined ? {} : { deadRows: t.deadRows - (b?.deadRows ?? 0) }),
        ...(t.writes === undefined ? {} : { writes: writesSince(b?.writes, t.writes) }),
        indexes,
      };
    })
    .filter((t) => t.totalBytes !== 0 || t.liveRows !== 0);
}

type Writes = NonNullable<TableSize['writes']>;
const writesSince = (before: Writes | undefined, after: Writes): Writes => ({
  inserts: after.inserts - (before?.inserts ?? 0),
  updates: after.updates - (before?.updates ?? 0),
  hotUpdates: after.hotUpdates - (before?.hotUpdates ?? 0),
  deletes: after.deletes - (before?.deletes ?? 0),
});
