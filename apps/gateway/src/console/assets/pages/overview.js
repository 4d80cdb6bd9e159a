import { call } from '../api.js';
import { field, fill, h, table, when } from '../dom.js';
import { notice } from './notice.js';

const REFRESH_MS = 10_000;
const WHOLE_SYSTEM = '';
const CHARTS = [
  // generated from the event-type registry by `npm run generate:webhook-events`: overview-series
  { title: 'Tails written and risk-assessment events consumed per minute', series: [['tailsWritten', 'Tails written', '#0969da'], ['eventsConsumed', 'Events consumed', '#8250df']] },
  // end of overview-series
  { title: 'Deliveries per minute', series: [['delivered', 'Delivered', '#1a7f37'], ['failed', 'Failed', '#cf222e'], ['skipped', 'Skipped', '#57606a']] },
];
const sum = (values) => values.reduce((a, b) => a + b, 0);

/** The last hour per minute (whole system or one domain), lags now, subscriptions to look at; refreshes by itself. */
export function overviewPage(main) {
  const note = notice(main);
  const scope = h('select', { name: 'scope' }, h('option', { value: WHOLE_SYSTEM }, 'Whole system'));
  const updated = h('p', { className: 'muted', role: 'status' });
  const now = h('div');
  const charts = h('div', { className: 'charts' });
  const domains = h('div');
  const attention = h('div');
  scope.addEventListener('change', () => last && draw(last));
  main.append(updated, h('h2', {}, 'Now'), now, h('h2', {}, 'The last hour'), field('Show', scope), charts, domains, h('h2', {}, 'Subscriptions disabled or failing'), attention);

  const plots = CHARTS.map((chart) => {
    const figure = h('figure', {}, h('figcaption', {}, chart.title));
    charts.append(figure);
    return { chart, figure, plot: null };
  });
  let last;

  async function refresh() {
    try {
      last = await call('GET', '/admin/Overview');
      draw(last);
      fill(updated, `Updated ${when(last.generatedAt)}; refreshes every ${REFRESH_MS / 1000} s.`);
    } catch (error) {
      note.error(error);
    }
  }

  function draw(o) {
    const chosen = scope.value;
    fill(scope, h('option', { value: WHOLE_SYSTEM }, 'Whole system'), o.domains.map((d) => h('option', { value: d.domain }, d.domain)));
    scope.value = o.domains.some((d) => d.domain === chosen) ? chosen : WHOLE_SYSTEM;
    const series = scope.value === WHOLE_SYSTEM ? o.total : o.domains.find((d) => d.domain === scope.value);
    const xs = o.minutes.map((m) => Date.parse(m) / 1000);
    for (const p of plots) {
      const data = [xs, ...p.chart.series.map(([key]) => series[key])];
      if (p.plot) p.plot.setData(data);
      else p.plot = new window.uPlot(chartOptions(p.chart), data, p.figure);
    }
    fill(now, h('dl', { className: 'facts' },
      o.lags.flatMap((lag) => [h('dt', {}, lagName(lag.name)), h('dd', {}, `${lag.events}${lag.capped ? '+' : ''} events behind, ${lag.seconds.toFixed(1)} s`)]),
      h('dt', {}, 'Risk-assessment consumer'), h('dd', {}, o.consumerLag === null ? 'unknown' : `${o.consumerLag} messages behind`)));
    fill(domains, table('Per domain, the last hour', ['Domain', 'Tails written', 'Events consumed', 'Delivered', 'Failed', 'Skipped'], o.domains.map((d) => [
      h('a', { href: `#/deliveries?domain=${encodeURIComponent(d.domain)}` }, d.domain),
      String(sum(d.tailsWritten)), String(sum(d.eventsConsumed)), String(sum(d.delivered)), String(sum(d.failed)), String(sum(d.skipped)),
    ])));
    fill(attention, table('Subscriptions disabled or failing', ['Domain', 'URL', 'Status', 'Failed in a row', 'Last failure'], o.subscriptions.map((s) => [
      h('a', { href: `#/subscriptions?domain=${encodeURIComponent(s.domain)}` }, s.domain), h('code', {}, s.url),
      h('span', {}, h('span', { className: `status ${s.status}` }, s.status), s.disabledReason ? ` (${s.disabledReason})` : ''),
      String(s.failedDeliveriesInARow), when(s.lastFailureAt),
    ])));
  }

  void refresh();
  const timer = setInterval(() => void refresh(), REFRESH_MS);
  return () => clearInterval(timer);
}

function chartOptions(chart) {
  return {
    width: Math.min(1100, document.getElementById('main').clientWidth - 40),
    height: 220,
    scales: { x: { time: true } },
    axes: [{}, { label: 'per minute' }],
    series: [{ label: 'Minute' }, ...chart.series.map(([, label, colour]) => ({ label, stroke: colour, width: 2 }))],
  };
}

function lagName(name) {
  return name === 'tails' ? 'Projection (read model)' : name.startsWith('relay:') ? 'Relay to Kafka' : name;
}
