import { call, query } from '../api.js';
import { field, fill, h, table, when } from '../dom.js';
import { action, notice } from './notice.js';

/** Search a domain by Mapped ID or tail number; a tail's view with every mapping, and its history as a timeline. */
export function tailsPage(main, params) {
  const note = notice(main);
  const domain = h('input', { name: 'domain', required: true, value: params.get('domain') ?? '' });
  const by = h('select', { name: 'by' }, h('option', { value: 'tailNumber' }, 'Tail number'), h('option', { value: 'mappedId' }, 'Mapped ID'));
  const term = h('input', { name: 'term', required: true });
  const results = h('div');
  const timeline = h('section', { 'aria-label': 'History' });
  const search = h('form', { className: 'inline', role: 'search', 'aria-label': 'Find tails' },
    field('Domain', domain), field('Search by', by), field('Value', term), h('button', { type: 'submit' }, 'Find'));
  search.addEventListener('submit', (event) => {
    event.preventDefault();
    void find();
  });
  main.append(search, results, timeline);

  const base = () => `/admin/Domains/${encodeURIComponent(domain.value.trim())}/Tails`;

  async function find() {
    fill(timeline);
    try {
      const { items } = await call('GET', base() + query({ [by.value]: term.value }));
      fill(results, table('Tails found', ['Tail number', 'Tail id', 'Status', 'Mappings (source → Mapped ID)', 'Updated', ''], items.map((t) => [
        t.tailNumber, String(t.tailId), h('span', { className: `status ${t.status}` }, t.status),
        h('ul', { className: 'mappings' }, t.mappings.map((m) => h('li', {}, h('code', {}, m.source), ' → ', h('code', {}, m.mappedId)))),
        when(t.updatedAt),
        t.mappings.length ? action('History', note, () => history(t), { 'aria-label': `History of tail ${t.tailId}` }) : '',
      ])));
    } catch (error) {
      note.error(error);
    }
  }

  async function history(tail) {
    const [mapping] = tail.mappings;
    const { items } = await call('GET', `${base()}/History${query({ source: mapping.source, mappedId: mapping.mappedId })}`);
    fill(timeline, h('h2', {}, `History of tail ${tail.tailId}`), h('ol', { className: 'timeline' }, items.map((e) => h('li', {},
      h('div', { className: 'when' }, when(e.occurredAt), ` · version ${e.version}`),
      h('div', {}, h('strong', {}, e.type), ' by ', h('code', {}, e.source)),
      h('pre', {}, JSON.stringify(e.data, null, 2)),
    ))));
  }

}
