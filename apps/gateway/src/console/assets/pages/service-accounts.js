import { call, query } from '../api.js';
import { field, fill, h, table, when } from '../dom.js';
import { action, notice } from './notice.js';

/** List (by domain, page by page), create (secret shown once), disable, enable, rotate, delete. */
export function serviceAccountsPage(main, params) {
  const note = notice(main);
  const domain = h('input', { name: 'domain', value: params.get('domain') ?? '', placeholder: 'every domain' });
  const list = h('div');
  const more = h('div');

  const newDomain = h('input', { name: 'new-domain', required: true, pattern: '[a-z0-9][a-z0-9\\-]{0,62}' });
  const newName = h('input', { name: 'new-name', required: true, maxlength: 200 });
  const create = h('form', { className: 'inline', 'aria-label': 'Create a service account' },
    field('Domain', newDomain), field('Name', newName), h('button', { type: 'submit' }, 'Create'));
  create.addEventListener('submit', (event) => {
    event.preventDefault();
    call('POST', '/admin/ServiceAccounts', { domain: newDomain.value, name: newName.value })
      .then((created) => {
        showSecret(note, 'Created', created);
        domain.value = created.domain;
        return load();
      })
      .catch((error) => note.error(error));
  });

  const filter = h('form', { className: 'inline', role: 'search', 'aria-label': 'Filter service accounts' }, field('Domain', domain), h('button', { type: 'submit' }, 'Show'));
  filter.addEventListener('submit', (event) => {
    event.preventDefault();
    void load();
  });

  main.append(h('h2', {}, 'Create'), create, h('h2', {}, 'Accounts'), filter, list, more);

  const rows = [];
  async function load(cursor) {
    if (!cursor) rows.length = 0;
    try {
      const page = await call('GET', `/admin/ServiceAccounts${query({ domain: domain.value.trim(), cursor, limit: 50 })}`);
      rows.push(...page.items);
      fill(list, table('Service accounts', ['Name', 'Domain', 'Client id', 'Status', 'Created', 'Actions'], rows.map((a) => [
        a.name, a.domain, h('code', {}, a.clientId), h('span', { className: `status ${a.status}` }, a.status), when(a.createdAt), actions(a),
      ])));
      fill(more, page.nextCursor ? h('button', { type: 'button', onclick: () => void load(page.nextCursor) }, 'More') : null);
    } catch (error) {
      note.error(error);
    }
  }

  function actions(account) {
    const path = `/admin/ServiceAccounts/${encodeURIComponent(account.clientId)}`;
    const label = `${account.name} (${account.clientId})`;
    const then = (message) => () => { note.ok(message); return load(); };
    return h('div', { className: 'actions' },
      account.status === 'active'
        ? action('Disable', note, () => call('POST', `${path}/Disable`).then(then(`Disabled ${label}.`)), { 'aria-label': `Disable ${label}` })
        : action('Enable', note, () => call('POST', `${path}/Enable`).then(then(`Enabled ${label}.`)), { 'aria-label': `Enable ${label}` }),
      action('Rotate secret', note, async () => {
        if (!confirm(`Replace the secret of ${label}? The current one stops getting tokens.`)) return;
        showSecret(note, 'New secret for', await call('POST', `${path}/RotateSecret`));
      }, { 'aria-label': `Rotate the secret of ${label}` }),
      action('Delete', note, async () => {
        if (!confirm(`Delete ${label}? Its tokens stop working within 5 seconds.`)) return;
        await call('DELETE', path);
        await then(`Deleted ${label}.`)();
      }, { className: 'danger', 'aria-label': `Delete ${label}` }),
    );
  }

  void load();
}

function showSecret(note, what, account) {
  note.ok(
    h('p', {}, `${what} ${account.name} in ${account.domain}. Copy the secret now: it is not shown again.`),
    h('dl', { className: 'secret' }, h('dt', {}, 'clientId'), h('dd', {}, h('code', { id: 'shown-client-id' }, account.clientId)),
      h('dt', {}, 'clientSecret'), h('dd', {}, h('code', { id: 'shown-client-secret' }, account.clientSecret))),
  );
}
