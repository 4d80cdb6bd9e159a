import { call } from '../api.js';
import { fill, h, table } from '../dom.js';
import { notice } from './notice.js';

/** Every domain with its service accounts, tails and subscription, linking to its other pages. */
export function domainsPage(main) {
  const note = notice(main);
  const list = h('div');
  main.append(list);
  call('GET', '/admin/Domains')
    .then(({ items }) => fill(list, table('Domains', ['Domain', 'Service accounts', 'Tails', 'Subscription', 'Pages'], items.map((d) => [
      d.domain, String(d.serviceAccounts), String(d.tails),
      d.subscription ? h('span', {}, h('span', { className: `status ${d.subscription.status}` }, d.subscription.status), ' ', h('code', {}, d.subscription.url)) : 'none',
      h('div', { className: 'actions' },
        h('a', { href: `#/service-accounts?domain=${encodeURIComponent(d.domain)}` }, 'Accounts'),
        h('a', { href: `#/subscriptions?domain=${encodeURIComponent(d.domain)}` }, 'Subscription'),
        h('a', { href: `#/deliveries?domain=${encodeURIComponent(d.domain)}` }, 'Deliveries'),
        h('a', { href: `#/tails?domain=${encodeURIComponent(d.domain)}` }, 'Tails')),
    ]))))
    .catch((error) => note.error(error));
}
