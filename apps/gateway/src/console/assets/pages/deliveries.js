import { call, query } from '../api.js';
import { field, fill, h, table, when } from '../dom.js';
import { action, notice } from './notice.js';

const STATUSES = ['', 'pending', 'delivered', 'failed', 'skipped'];

/** A domain's delivery log filtered by status, event id and time; each delivery's attempts; redeliver; recover a window; backfill from the topic and its jobs. */
export function deliveriesPage(main, params) {
  const note = notice(main);
  const domain = h('input', { name: 'domain', required: true, value: params.get('domain') ?? '' });
  const status = h('select', { name: 'status' }, STATUSES.map((s) => h('option', { value: s }, s || 'any')));
  const eventId = h('input', { name: 'eventId', placeholder: 'UUID' });
  const since = h('input', { name: 'since', placeholder: '2025-06-01T00:00:00Z' });
  const until = h('input', { name: 'until', placeholder: 'now' });
  const list = h('div');
  const more = h('div');

  const filter = h('form', { className: 'inline', role: 'search', 'aria-label': 'Filter deliveries' },
    field('Domain', domain), field('Status', status), field('Event id', eventId), field('Since', since), field('Until', until),
    h('button', { type: 'submit' }, 'Show'));
  filter.addEventListener('submit', (event) => {
    event.preventDefault();
    void load();
  });
  const recover = h('form', { className: 'inline', 'aria-label': 'Recover a window' },
    h('p', {}, 'Send every failed or skipped delivery of the domain created in [since, until) again.'),
    h('button', { type: 'submit' }, 'Recover the window'));
  recover.addEventListener('submit', (event) => {
    event.preventDefault();
    call('POST', `/admin/Domains/${encodeURIComponent(domain.value.trim())}/Deliveries/Recover`, { since: since.value.trim(), until: until.value.trim() || undefined })
      .then((r) => { note.ok(`Recovery ${r.recoveryId}: ${r.deliveries} deliveries started again.`); return load(); })
      .catch((error) => note.error(error));
  });
  const backfill = h('form', { className: 'inline', 'aria-label': 'Backfill from the topic' },
    h('p', {}, 'Send the events still on the topic from since (at most 7 days back) that the domain has no delivery for.'),
    h('button', { type: 'submit' }, 'Backfill from the topic'));
  backfill.addEventListener('submit', (event) => {
    event.preventDefault();
    call('POST', `/admin/Domains/${encodeURIComponent(domain.value.trim())}/Deliveries/Backfill`, { since: since.value.trim() })
      .then((r) => { note.ok(`Backfill ${r.backfillId} queued.`); return loadBackfills(); })
      .catch((error) => note.error(error));
  });
  const backfills = h('div');
  main.append(filter, list, more, h('h2', {}, 'Recover'), recover, h('h2', {}, 'Backfill'), backfill, backfills);

  /** The domain's recent backfill jobs, with a Cancel for those queued or running. */
  async function loadBackfills() {
    if (!domain.value.trim()) return;
    const base = `/admin/Domains/${encodeURIComponent(domain.value.trim())}`;
    try {
      const { items } = await call('GET', `${base}/Backfills`);
      fill(backfills, table('Backfills, newest first', ['Id', 'Since', 'State', 'Found', 'Stored', 'Started', 'Finished', 'Actions'], items.map((b) => [
        h('code', {}, b.backfillId), when(b.since), h('span', { className: `status ${b.state}` }, b.state), String(b.eventsFound), String(b.eventsStored),
        b.startedAt ? when(b.startedAt) : '', b.finishedAt ? when(b.finishedAt) : '',
        b.state === 'queued' || b.state === 'running'
          ? action('Cancel', note, () => call('DELETE', `${base}/Deliveries/Backfill/${encodeURIComponent(b.backfillId)}`).then(() => { note.ok(`Backfill ${b.backfillId} cancelled.`); return loadBackfills(); }),
            { 'aria-label': `Cancel backfill ${b.backfillId}` })
          : '',
      ])));
    } catch (error) {
      note.error(error);
    }
  }

  const rows = [];
  async function load(cursor) {
    if (!domain.value.trim()) return;
    if (!cursor) rows.length = 0;
    const base = `/admin/Domains/${encodeURIComponent(domain.value.trim())}/Deliveries`;
    try {
      const page = await call('GET', base + query({ status: status.value, eventId: eventId.value.trim(), since: since.value.trim(), until: until.value.trim(), cursor }));
      rows.push(...page.items);
      fill(list, table('Deliveries, newest first', ['Created', 'Event id', 'Status', 'Attempts', 'Actions'], rows.map((d) => [
        when(d.createdAt), h('code', {}, d.eventId), [h('span', { className: `status ${d.status}` }, d.status), d.backfillId ? ' (backfilled)' : ''], attempts(d),
        d.status === 'failed'
          ? action('Redeliver', note, () => call('POST', `${base}/${encodeURIComponent(d.id)}/Redeliver`).then(() => { note.ok(`Delivery of ${d.eventId} started again.`); return load(); }),
            { 'aria-label': `Redeliver ${d.eventId}` })
          : '',
      ])));
      fill(more, page.nextCursor ? h('button', { type: 'button', onclick: () => void load(page.nextCursor) }, 'More') : null);
      if (!cursor) await loadBackfills();
    } catch (error) {
      note.error(error);
    }
  }

  void load();
}

function attempts(delivery) {
  if (!delivery.attempts.length) return 'none';
  return h('ol', { className: 'attempts' }, delivery.attempts.map((a) => h('li', {},
    `#${a.attempt} ${when(a.at)} · `,
    h('strong', {}, a.statusCode === null ? 'no answer' : `HTTP ${a.statusCode}`),
    ` · ${a.durationMs} ms`,
    a.retryAfterMs === null ? '' : ` · Retry-After ${a.retryAfterMs} ms`,
    a.error ? h('div', { className: 'error' }, a.error) : '',
  )));
}
