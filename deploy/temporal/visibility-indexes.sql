-- Temporal's PostgreSQL visibility schema (v12) gives executions_visibility 54 indexes, one per
-- column a List can filter on, each with an entry for every run, NULL or not. A b-tree entry holds
-- namespace_id and run_id (CHAR(64) each): about 170 bytes a run, and as many again at each
-- update that is not HOT (every search-attribute upsert) until vacuum. Most of these columns are
-- NULL for almost every run: the custom search-attribute slots a namespace has not mapped, the
-- schedule and batch attributes, the parent of a run that has none, and what is only set at close.
--
-- This makes those indexes partial (WHERE <column> IS NOT NULL): a run whose column is NULL has no
-- entry. A List that compares the column (=, !=, <, >, IN, BETWEEN, STARTS_WITH, a keyword list's
-- or a text's match) implies it is not NULL, so PostgreSQL still uses the index; `<column> IS NULL`
-- reads another index instead. No result changes, only what is stored. TemporalNamespaceDivision
-- stays whole: the server adds `IS NULL` on it to every List.
--
-- Run by `setup.sh indexes` after `setup.sh schema`, and again after every schema upgrade (one
-- that recreated an index leaves it whole). Each index is rebuilt only while it is not partial, in
-- one transaction that locks the table while it builds: quick before the server starts, longer on
-- a table that already holds millions of runs (docs/capacity.md).
DO $$
DECLARE
  target record;
BEGIN
  FOR target IN
    SELECT c.relname AS index_name, pg_get_indexdef(c.oid) AS definition, a.attname AS column_name
    FROM unnest(ARRAY[
      -- the custom search-attribute slots
      'by_bool_01', 'by_bool_02', 'by_bool_03',
      'by_datetime_01', 'by_datetime_02', 'by_datetime_03',
      'by_double_01', 'by_double_02', 'by_double_03',
      'by_int_01', 'by_int_02', 'by_int_03',
      'by_keyword_01', 'by_keyword_02', 'by_keyword_03', 'by_keyword_04', 'by_keyword_05',
      'by_keyword_06', 'by_keyword_07', 'by_keyword_08', 'by_keyword_09', 'by_keyword_10',
      'by_text_01', 'by_text_02', 'by_text_03',
      'by_keyword_list_01', 'by_keyword_list_02', 'by_keyword_list_03',
      -- set only for schedules' and batch operations' runs
      'by_batcher_user', 'by_temporal_scheduled_start_time', 'by_temporal_scheduled_by_id',
      'by_temporal_schedule_paused',
      -- set only on a child's run, on a paused activity's run, by the older build-id versioning
      'by_parent_workflow_id', 'by_parent_run_id', 'by_temporal_pause_info',
      'by_binary_checksums', 'by_build_ids',
      -- set when the run closes
      'by_execution_duration', 'by_history_length', 'by_history_size_bytes'
    ]) AS wanted(name)
    JOIN pg_class c ON c.relname = wanted.name AND c.relkind = 'i'
    JOIN pg_index i ON i.indexrelid = c.oid
    -- Every one of these indexes has namespace_id first and its own column second.
    JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[1]
    WHERE i.indpred IS NULL
      AND i.indrelid = 'executions_visibility'::regclass
  LOOP
    EXECUTE format('DROP INDEX %I', target.index_name);
    EXECUTE target.definition || format(' WHERE %I IS NOT NULL', target.column_name);
    RAISE NOTICE 'visibility index % made partial (% IS NOT NULL)', target.index_name, target.column_name;
  END LOOP;
END $$;
