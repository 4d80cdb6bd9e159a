import type { NewDelivery, TopicPosition } from './delivery';

/**
 * One delivery per domain and event: the log is partitioned by week (its unique keys must hold the
 * partition key), so each delivery's (domain, event id) is taken in `webhook_delivery_keys` by the
 * statement that inserts it. A re-consumed event finds its key taken and makes no second delivery,
 * whichever week the first one is in; the keys of a dropped week go after it (DeliveryLogRetention).
 */

/** The columns of new deliveries' rows, in the order of their statement parameters $1…$8. */
export const NEW_COLUMNS = 'domain, event_id, event_name, body, status, source_partition, source_offset, traceparent';

/** The `unnest` of the parameters $1…$8 of new deliveries ({@link columnsOf} below). */
export const NEW_ROWS = 'unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::int[], $7::bigint[], $8::text[])';

/**
 * CTEs ending in `fresh`: the rows of {@link NEW_ROWS} whose (domain, event id) was not taken, each
 * once, with its new delivery's `id` and its place `n` in the batch (inserts go `order by n`, so `seq`
 * follows the batch); their keys are taken by the same statement.
 * A key taken by a statement still running waits for it (and is then seen as taken).
 */
export const FRESH_DELIVERIES = `input as (
         select distinct on (domain, event_id) i.*, gen_random_uuid() as id
           from ${NEW_ROWS} with ordinality as i(${NEW_COLUMNS}, n)
          order by domain, event_id, n
       ),
       keyed as (
         insert into webhook_delivery_keys (domain, event_id, id, created_at)
         select domain, event_id, id, now() from input
         on conflict (domain, event_id) do nothing
         returning id
       ),
       fresh as (select i.* from input i join keyed k on k.id = i.id order by i.n)`;

/**
 * NewDeliveries.writeLeased's statement: inserts leased deliveries ($1 ids, $2 domains, $3 event
 * ids, $4 names, $5 bodies, $6 lease tokens, $9 partitions, $10 offsets, $11 traceparents; owner $7
 * for $8 ms) whose event is new, and takes over an existing row of the event that nobody has leased
 * or attempted yet: it becomes the new row (its id, and its key's). Returns the ids written.
 */
export const TAKE_OVER_UNLEASED = `with input as (
         select * from unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::text[], $6::uuid[], $9::int[], $10::bigint[], $11::text[])
           with ordinality as i(id, domain, event_id, event_name, body, token, source_partition, source_offset, traceparent, n)
       ),
       keyed as (
         insert into webhook_delivery_keys (domain, event_id, id, created_at)
         select domain, event_id, id, now() from input
         on conflict (domain, event_id) do nothing
         returning id
       ),
       inserted as (
         insert into webhook_deliveries (id, domain, event_id, event_name, body, status, lease_owner, lease_token, lease_until, source_partition, source_offset, traceparent)
         select i.id, i.domain, i.event_id, i.event_name, i.body, 'pending', $7, i.token, clock_timestamp() + make_interval(secs => $8::float8 / 1000),
                i.source_partition, i.source_offset, i.traceparent
           from input i join keyed k on k.id = i.id
          order by i.n
         returning id
       ),
       taken as (
         update webhook_deliveries d
            set id = i.id, lease_owner = $7, lease_token = i.token, lease_until = clock_timestamp() + make_interval(secs => $8::float8 / 1000),
                next_attempt_at = now(), updated_at = now()
           from input i join webhook_delivery_keys k on k.domain = i.domain and k.event_id = i.event_id
          where d.id = k.id and d.created_at = k.created_at and d.status = 'pending' and d.attempts = 0 and d.lease_owner is null
         returning d.id, d.domain, d.event_id
       ),
       rekeyed as (
         update webhook_delivery_keys k set id = t.id from taken t where k.domain = t.domain and k.event_id = t.event_id
       )
       select id from inserted union all select id from taken`;

/** The statement parameters of new deliveries, column by column (their `unnest`: NEW_ROWS in delivery-keys.ts). */
export function columnsOf(deliveries: NewDelivery[]): [string[], string[], string[], string[], string[], (number | null)[], (string | null)[], (string | null)[]] {
  return [
    deliveries.map((d) => d.domain), deliveries.map((d) => d.eventId), deliveries.map((d) => d.eventName), deliveries.map((d) => d.body),
    deliveries.map((d) => d.status ?? 'pending'), ...positionColumns(deliveries), deliveries.map((d) => d.traceparent ?? null),
  ];
}

export const positionColumns = (rows: { position?: TopicPosition }[]): [(number | null)[], (string | null)[]] =>
  [rows.map((r) => r.position?.partition ?? null), rows.map((r) => r.position?.offset ?? null)];
