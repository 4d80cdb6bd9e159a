import { lastMinutes, minuteSeries } from './overview-series';

describe('overview series', () => {
  const minutes = lastMinutes(Date.parse('2026-01-01T10:02:30Z'), 3);

  it('names the last minutes, the current one last', () => {
    expect(minutes).toEqual(['2026-01-01T10:00:00.000Z', '2026-01-01T10:01:00.000Z', '2026-01-01T10:02:00.000Z']);
  });

  it('adds counts into the minute of each domain and of the whole system, ignoring minutes outside the window', () => {
    const none = { tailsWritten: [], eventsConsumed: [], failed: [], skipped: [] };
    const { total, domains } = minuteSeries(minutes, {
      ...none,
      delivered: [
        { minute: minutes[0], domain: 'b', count: 2 },
        { minute: minutes[2], domain: 'a', count: 1 },
        { minute: minutes[2], domain: 'b', count: 3 },
        { minute: '2026-01-01T09:00:00.000Z', domain: 'a', count: 9 },
      ],
    });
    expect(total.delivered).toEqual([2, 0, 4]);
    expect(total.failed).toEqual([0, 0, 0]);
    expect(domains.map((d) => [d.domain, d.delivered])).toEqual([['a', [0, 0, 1]], ['b', [2, 0, 3]]]);
  });
});
