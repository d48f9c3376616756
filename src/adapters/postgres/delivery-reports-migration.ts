/**
 * Version 4: delivery reports go through one function, which plans its UPDATE for the ids it is
 * given on every call (`plan_cache_mode = force_custom_plan`), however it is called. A prepared
 * statement's generic plan, made while the outbox was small, kept a sequential scan as the outbox
 * grew (about 4 ms a report after a few thousand users); planned with the ids and the table's
 * current size, the update goes through the index on id. Being a function, a report could also
 * ride in a new users' write statement, which stayed prepared, as reports once did.
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

/**
 * Version 6: the same function, cheaper for a few reports in a call (2–5 under load, when they
 * rode in write statements). Planning the joined UPDATE on every call cost the database about 95 µs per report in
 * calls of three, more than the update itself; a few reports are now updated one by one, by id,
 * under a plan made once per connection (about 72 µs). That plan must not read the outbox
 * sequentially, as the cheapest way while it was tiny: `enable_seqscan = off` leaves it the unique
 * index on id. Past ten reports in a call the one planned UPDATE costs less, and stays: `EXECUTE`
 * plans it afresh with the reports given, as `force_custom_plan` did. One by one, the rows are taken in id
 * order, so that two reporters of the same notifications queue instead of deadlocking.
 */
export const DELIVERY_REPORTS_BY_ID_SQL = `
CREATE OR REPLACE FUNCTION human_users_mark_delivered(reports json) RETURNS integer
LANGUAGE plpgsql
SET enable_seqscan = off
AS $$
DECLARE
  marked integer := 0;
  one integer;
  report record;
BEGIN
  IF json_array_length(reports) > 10 THEN
    EXECUTE $update$
      UPDATE human_users_outbox AS o
      SET state = 'delivered', code = '', link = '', delivered_at = d.at, leased_until = NULL, retry_at = NULL
      FROM json_to_recordset($1) AS d(id text, at timestamptz)
      WHERE o.id = ANY (ARRAY(SELECT r.id FROM json_to_recordset($1) AS r(id text))) AND o.id = d.id
        AND o.state NOT IN ('delivered', 'dead')
    $update$ USING reports;
    GET DIAGNOSTICS marked = ROW_COUNT;
    RETURN marked;
  END IF;
  FOR report IN SELECT d.id, d.at FROM json_to_recordset(reports) AS d(id text, at timestamptz) ORDER BY d.id LOOP
    UPDATE human_users_outbox
    SET state = 'delivered', code = '', link = '', delivered_at = report.at, leased_until = NULL, retry_at = NULL
    WHERE id = report.id AND state NOT IN ('delivered', 'dead');
    GET DIAGNOSTICS one = ROW_COUNT;
    marked := marked + one;
  END LOOP;
  RETURN marked;
END
$$;
`;

/**
 * Version 8: a delivery is recorded also for a notification an append withdrew while it was being
 * sent (`withdrawnNotificationKinds`: dead, "its code no longer works"). The mail went out, and
 * its record often follows the user's next write (a code redeemed at once, from that very mail):
 * left dead, a delivered mail read as dead. Other dead notifications stay dead, as before. The
 * text is `WITHDRAWN_NOTIFICATION_ERROR`'s, written out: a released version is never edited.
 */
export const DELIVERY_OF_WITHDRAWN_SQL = `
CREATE OR REPLACE FUNCTION human_users_mark_delivered(reports json) RETURNS integer
LANGUAGE plpgsql
SET enable_seqscan = off
AS $$
DECLARE
  marked integer := 0;
  one integer;
  report record;
BEGIN
  IF json_array_length(reports) > 10 THEN
    EXECUTE $update$
      UPDATE human_users_outbox AS o
      SET state = 'delivered', code = '', link = '', delivered_at = d.at, leased_until = NULL, retry_at = NULL
      FROM json_to_recordset($1) AS d(id text, at timestamptz)
      WHERE o.id = ANY (ARRAY(SELECT r.id FROM json_to_recordset($1) AS r(id text))) AND o.id = d.id
        AND (o.state = 'pending' OR (o.state = 'dead' AND o.last_error = 'its code no longer works'))
    $update$ USING reports;
    GET DIAGNOSTICS marked = ROW_COUNT;
    RETURN marked;
  END IF;
  FOR report IN SELECT d.id, d.at FROM json_to_recordset(reports) AS d(id text, at timestamptz) ORDER BY d.id LOOP
    UPDATE human_users_outbox
    SET state = 'delivered', code = '', link = '', delivered_at = report.at, leased_until = NULL, retry_at = NULL
    WHERE id = report.id AND (state = 'pending' OR (state = 'dead' AND last_error = 'its code no longer works'));
    GET DIAGNOSTICS one = ROW_COUNT;
    marked := marked + one;
  END LOOP;
  RETURN marked;
END
$$;
`;
