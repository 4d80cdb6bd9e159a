import { call } from '../api.js';
import { field, fill, h, when } from '../dom.js';
import { action, notice } from './notice.js';

/** A domain's subscription with its health, signature scheme (revoke a key), limits and ordering; disable it, enable it again; a test call with its diagnostics. */
export function subscriptionsPage(main, params) {
  const note = notice(main);
  const domain = h('input', { name: 'domain', required: true, value: params.get('domain') ?? '' });
  const view = h('div');
  const result = h('div');
  const show = h('form', { className: 'inline', role: 'search', 'aria-label': 'Show a subscription' }, field('Domain', domain), h('button', { type: 'submit' }, 'Show'));
  show.addEventListener('submit', (event) => {
    event.preventDefault();
    void load();
  });
  main.append(show, view, result);

  const base = () => `/admin/Domains/${encodeURIComponent(domain.value.trim())}/Subscription`;

  async function load() {
    fill(result);
    try {
      render(await call('GET', base()));
    } catch (error) {
      fill(view);
      note.error(error);
    }
  }

  function render(s) {
    const signingKeys = h('span', {}, '…');
    if (s.signatureScheme === 'ed25519') void showKeys(signingKeys);
    const payload = h('textarea', { name: 'payload', rows: 3, cols: 50 }, '{"hello":"world"}');
    fill(view, h('dl', { className: 'facts' },
      fact('URL', h('code', {}, s.url)), fact('Events', s.eventNames.join(', ')),
      fact('Status', h('span', { className: `status ${s.status}` }, s.status), s.disabledReason ? ` (${s.disabledReason} since ${when(s.disabledAt)})` : ''),
      fact('Last success', when(s.health.lastSuccessAt)), fact('Last failure', when(s.health.lastFailureAt)),
      fact('Failed in a row', String(s.health.failedDeliveriesInARow)),
      fact('Secret set', when(s.secretUpdatedAt)), fact('Previous secret valid until', when(s.previousSecretValidUntil)),
      fact('Signature scheme', s.signatureScheme === 'ed25519' ? 'ed25519 (the domain key; v1a, EdDSA)' : 'hmac-sha256 (the shared secret; v1, HS256)'),
      s.signatureScheme === 'ed25519' ? fact('Public keys', signingKeys) : [],
      fact('Limits', `${s.maxPerSecond ?? 'no cap'} per second, ${s.maxInFlight ?? 'no cap'} in flight`),
      fact('Ordering', s.ordering === 'fifo' ? 'fifo (one event at a time, in the topic order)' : 'none (as they come, concurrently)')),
    h('div', { className: 'actions' },
      s.status === 'disabled'
        ? action('Enable', note, () => call('POST', `${base()}/Enable`).then((v) => { note.ok('Enabled.'); render(v); }))
        : action('Disable', note, async () => {
          if (!confirm(`Disable the subscription of ${domain.value.trim()}? Callbacks stop and its events are recorded as skipped until it is enabled.`)) return;
          const v = await call('POST', `${base()}/Disable`);
          note.ok('Disabled.');
          render(v);
        }, { className: 'danger' }),
    ),
    h('h2', {}, 'Test call'), field('Payload (JSON object)', payload),
    action('Send a test call', note, async () => {
      let body;
      try {
        body = { payloadToEcho: JSON.parse(payload.value) };
      } catch {
        throw new Error('The payload is not JSON.');
      }
      const { success, diagnostics: d } = await call('POST', `${base()}/Test`, body);
      fill(result, h('dl', { className: 'facts', 'aria-label': 'Test call result' },
        fact('Success', success ? 'yes' : 'no'), fact('Status code', d.statusCode === null ? 'no answer' : String(d.statusCode)),
        fact('Duration', `${d.durationMs} ms`), fact('Error', d.error ?? '—'), fact('Response', h('pre', {}, d.responseBodySnippet ?? ''))));
    }));
  }

  /** The domain's keys with a link to its JWK Set (what receivers fetch), each revocable at once (a key that leaked). */
  async function showKeys(into) {
    const name = domain.value.trim();
    const keysPath = `/admin/Domains/${encodeURIComponent(name)}/SigningKeys`;
    const url = `/.well-known/webhooks/jwks.json?domain=${encodeURIComponent(name)}`;
    try {
      const { items } = await call('GET', keysPath);
      fill(into, h('a', { href: url }, 'JWK Set'), ': ', items.length === 0 ? 'none' : h('ul', { className: 'keys' }, ...items.map((k) => h('li', {},
        h('code', {}, k.kid), ` ${k.status}${k.retiresAt ? ` until ${when(k.retiresAt)}` : ''} `,
        action('Revoke', note, async () => {
          if (!confirm(`Revoke key ${k.kid} of ${name} now? It leaves the JWK Set at once and the next key signs at once.`)) return;
          await call('POST', `${keysPath}/${encodeURIComponent(k.kid)}/Revoke`);
          note.ok(`Key ${k.kid} revoked.`);
          await showKeys(into);
        }, { className: 'danger', 'aria-label': `Revoke key ${k.kid}` })))));
    } catch (error) {
      fill(into, error.message);
    }
  }

  if (domain.value) void load();
}

function fact(term, ...details) {
  return [h('dt', {}, term), h('dd', {}, ...details)];
}
