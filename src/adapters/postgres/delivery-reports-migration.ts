/**
 * Version 4: delivery reports go through one function, which plans its UPDATE for the ids it is
 * given on every call (`plan_cache_mode = force_custom_plan`), however it is called. A prepared
 * statement's generic plan, made while the outbox was small, kept a sequential scan as the outbox
 * grew (about 4 ms a report after a few thousand users); planned with the ids and the table's
 * current size, the update goes through the index on id. Being a function, a report can also ride
 * in a new users' write statement (see delivery-reports.ts): that statement stays prepared.
 * `reports`: a JSON array of {id, at}. Answers how many notifications it marked; one already delivered or
 * dead is left as it is.
 */
export const DELIVERY_REPORTS_SQL = `
CREATE FUNCTION human_users_mark_delivered(reports json) RETURNS integer
LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
  marked integer;
BEGIN
  UPDATE human_users_outbox AS o
  SET state = 'delivered', code = '', link = '', delivered_at = d.at, leased_until = NULL, retry_at = NULL
  FROM json_to_recordset(reports) AS d(id text, at timestamptz)
  WHERE o.id = ANY (ARRAY(SELECT r.id FROM json_to_recordset(reports) AS r(id text))) AND o.id = d.id
    AND o.state NOT IN ('delivered', 'dead');
  GET DIAGNOSTICS marked = ROW_COUNT;
  RETURN marked;
END
$$;
`;
