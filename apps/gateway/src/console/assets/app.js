// The console's shell: navigation by URL hash, one module per page, sign-out.
import { signOut } from './api.js';
import { fill, h } from './dom.js';
import { serviceAccountsPage } from './pages/service-accounts.js';
import { deliveriesPage } from './pages/deliveries.js';
import { tailsPage } from './pages/tails.js';
import { domainsPage } from './pages/domains.js';
import { subscriptionsPage } from './pages/subscriptions.js';
import { overviewPage } from './pages/overview.js';

const PAGES = [
  { hash: '#/overview', title: 'Overview', render: overviewPage },
  { hash: '#/domains', title: 'Domains', render: domainsPage },
  { hash: '#/service-accounts', title: 'Service accounts', render: serviceAccountsPage },
  { hash: '#/subscriptions', title: 'Subscriptions', render: subscriptionsPage },
  { hash: '#/deliveries', title: 'Deliveries', render: deliveriesPage },
  { hash: '#/tails', title: 'Tails', render: tailsPage },
];

const main = document.getElementById('main');
const nav = document.getElementById('nav');
let stopPage;

function show() {
  const page = PAGES.find((p) => location.hash.split('?')[0] === p.hash) ?? PAGES[0];
  fill(nav, h('ul', {}, PAGES.map((p) => h('li', {}, h('a', { href: p.hash, 'aria-current': p === page ? 'page' : undefined }, p.title)))));
  document.title = `${page.title} · tailsync console`;
  stopPage?.();
  stopPage = page.render(fill(main, h('h1', {}, page.title)), new URLSearchParams(location.hash.split('?')[1] ?? ''));
}

document.getElementById('sign-out').addEventListener('click', () => void signOut());
window.addEventListener('hashchange', show);
show();
