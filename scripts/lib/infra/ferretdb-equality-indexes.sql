-- Equality lookups served by an index on FerretDB 1.24 (run by infra-up on FerretDB's PostgreSQL
-- database; idempotent). FerretDB hands PostgreSQL a top-level equality as
-- `_jsonb->'field' @> value`, and makes each MongoDB index a btree on `(_jsonb->'field')`, which
-- cannot serve `@>`: every lookup by `_id`, by a flag or by a patient scanned its whole collection.
-- A GIN index on the same expression can serve it. From here on, for each btree index FerretDB
-- creates, PostgreSQL adds a GIN index on its first key when that is a top-level field (once per
-- table and field), so equalities cost what MongoDB's indexes make them cost; sorts and ranges
-- FerretDB still does itself, reading every document.

CREATE OR REPLACE FUNCTION crm_equality_index(index_oid oid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  indexed regclass;
  first_key text;
BEGIN
  -- The first key: the one by which an equality can use the index, on MongoDB too.
  SELECT i.indrelid::regclass, pg_get_indexdef(i.indexrelid, 1, true) INTO indexed, first_key
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
   WHERE i.indexrelid = index_oid AND a.amname = 'btree';
  -- FerretDB's form for a top-level field only (a dotted path is `(_jsonb->'a')->'b'` here, but
  -- `_jsonb #> '{a,b}'` in its queries: no index could serve it).
  IF indexed IS NULL OR first_key !~ '^\(?_jsonb -> ''([^'']|'''')+''::text\)?$' THEN
    RETURN;
  END IF;
  IF EXISTS (
    SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
     WHERE i.indrelid = indexed AND a.amname = 'gin' AND pg_get_indexdef(i.indexrelid, 1, true) = first_key
  ) THEN
    RETURN;
  END IF;
  EXECUTE format('CREATE INDEX ON %s USING gin ((%s) jsonb_path_ops)', indexed, first_key);
END $$;

CREATE OR REPLACE FUNCTION crm_equality_indexes_on_create() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
  created record;
BEGIN
  FOR created IN
    SELECT objid FROM pg_event_trigger_ddl_commands() WHERE object_type = 'index'
  LOOP
    PERFORM crm_equality_index(created.objid);
  END LOOP;
END $$;

DROP EVENT TRIGGER IF EXISTS crm_equality_indexes;
CREATE EVENT TRIGGER crm_equality_indexes ON ddl_command_end WHEN TAG IN ('CREATE INDEX')
  EXECUTE FUNCTION crm_equality_indexes_on_create();

-- The indexes of collections made before this script ran.
SELECT count(crm_equality_index(i.indexrelid)) AS checked
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast');
