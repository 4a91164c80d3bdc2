/** SQLSTATE raised by es_append when the expected version does not hold; DETAIL carries the actual revision. */
export const WRONG_EXPECTED_VERSION_SQLSTATE = 'ES409';
/** SQLSTATE raised by es_append when event ids were appended before, but not as this exact append. */
export const DUPLICATE_EVENT_SQLSTATE = 'ES422';
/**
 * SQLSTATE raised by es_append when the caller's transaction is older than the stream's last writer: PostgreSQL's
 * serialization_failure, which retry loops and poolers already treat as "run the transaction again".
 */
export const STREAM_ORDER_CONFLICT_SQLSTATE = '40001';
/** First key of the two-key advisory locks that serialise writers of one stream (apart from any other lock). */
export const STREAM_LOCK_SPACE = 7_240_118;

/**
 * `es_append(stream_id, expected, events, notify_channel)`: the whole append in one round trip. It locks the stream
 * (writers of one stream queue there, writers of different streams never meet), answers a retried append with its
 * original result, checks the expected version, inserts the events in order and optionally NOTIFYs.
 *
 * Why the lock is an advisory lock taken before anything is written: the global log is ordered by transaction id,
 * and PostgreSQL assigns that id at a transaction's first write. A writer that got its id before queueing behind
 * the stream's current writer (the speculative insert of two creators of one new stream does exactly that) would
 * commit later revisions under a lower id, and readers would see the stream out of order. Taking the lock before
 * the first write means a plain append gets its id after the previous writer committed, so ids grow with
 * revisions. A caller's transaction that wrote before this append already holds an id; if that id is older than
 * the stream's last writer (kept on the stream row), the append refuses with a serialization failure and nothing
 * is written: retrying the transaction gives it a newer id.
 * `expected` is 'any' | 'no_stream' | 'stream_exists' | a revision in decimal; `events` is a JSON array of
 * `{ id, type, data, metadata }`.
 */
export const appendFunctionSql = `
create or replace function es_append(p_stream_id text, p_expected text, p_events jsonb, p_notify text)
returns table (next_revision bigint, commit_position bigint, global_position bigint)
language plpgsql as $fn$
#variable_conflict use_column
declare
  v_count bigint := jsonb_array_length(p_events);
  v_first_id uuid := (p_events->0->>'id')::uuid;
  v_current bigint;
  v_last_tx bigint;
  v_created boolean := false;
  v_found_stream text;
  v_found_revision bigint;
  v_matching bigint;
begin
  perform pg_advisory_xact_lock(${STREAM_LOCK_SPACE}, hashtext(p_stream_id));
  select s.revision, s.last_tx_id into v_current, v_last_tx from es_streams s where s.stream_id = p_stream_id for update;
  if not found then
    if p_expected not in ('any', 'no_stream', '-1') then
      raise exception 'es_append: stream % expected %, actual -1', p_stream_id, p_expected
        using errcode = '${WRONG_EXPECTED_VERSION_SQLSTATE}', detail = '-1';
    end if;
    -- Create the stream with its final revision (one tuple); a concurrent creator makes this a no-op and we
    -- continue on the existing-stream path below, after waiting for its commit.
    insert into es_streams (stream_id, revision, last_tx_id)
      values (p_stream_id, v_count - 1, pg_current_xact_id()::text::bigint) on conflict do nothing;
    if found then
      v_created := true;
      v_current := -1;
    else
      select s.revision, s.last_tx_id into v_current, v_last_tx
        from es_streams s where s.stream_id = p_stream_id for update;
    end if;
  end if;

  if not v_created then
    -- Idempotency comes before the version check: a retry of a committed append must get its original answer.
    select e.stream_id, e.stream_revision into v_found_stream, v_found_revision
      from es_events e where e.event_id = v_first_id;
    if found then
      select count(*) into v_matching
        from jsonb_array_elements(p_events) with ordinality as n(value, ord)
        join es_events e on e.stream_id = p_stream_id
          and e.stream_revision = v_found_revision + n.ord - 1
          and e.event_id = (n.value->>'id')::uuid;
      if v_found_stream <> p_stream_id or v_matching <> v_count then
        raise exception 'es_append: events of this append were appended before, but not as this append'
          using errcode = '${DUPLICATE_EVENT_SQLSTATE}';
      end if;
      return query
        select e.stream_revision, e.tx_id, e.global_position from es_events e
        where e.stream_id = p_stream_id and e.stream_revision = v_found_revision + v_count - 1;
      return;
    end if;
    if not (p_expected = 'any'
        or (p_expected = 'stream_exists' and v_current >= 0)
        or (p_expected in ('no_stream', '-1') and v_current < 0)
        or (p_expected ~ '^[0-9]+$' and p_expected::bigint = v_current)) then
      raise exception 'es_append: stream % expected %, actual %', p_stream_id, p_expected, v_current
        using errcode = '${WRONG_EXPECTED_VERSION_SQLSTATE}', detail = v_current::text;
    end if;
    if v_last_tx is not null and v_last_tx > pg_current_xact_id()::text::bigint then
      raise exception 'es_append: stream % was written by a newer transaction; retry the transaction', p_stream_id
        using errcode = '${STREAM_ORDER_CONFLICT_SQLSTATE}';
    end if;
    update es_streams set revision = v_current + v_count, last_tx_id = pg_current_xact_id()::text::bigint
      where stream_id = p_stream_id;
  end if;

  if p_notify is not null then
    perform pg_notify(p_notify, '');
  end if;

  return query
    with inserted as (
      insert into es_events (stream_id, stream_revision, event_id, type, data, metadata)
      select p_stream_id, v_current + n.ord, (n.value->>'id')::uuid, n.value->>'type', n.value->'data', n.value->'metadata'
      from jsonb_array_elements(p_events) with ordinality as n(value, ord)
      order by n.ord
      returning es_events.global_position
    )
    select v_current + v_count, pg_current_xact_id()::text::bigint, max(inserted.global_position) from inserted;
end;
$fn$;
`;
