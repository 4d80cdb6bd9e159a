import { TailEventMessage, TOPICS } from '@tailsync/contracts';
import { api, newServiceAccount } from './support/accounts';
import { collect } from './support/kafka';

describe('tail events on Kafka (tailsync.tail-events)', () => {
  it('publishes every tail event with its key, Mapped IDs after the event, in order per tail', async () => {
    const a = await newServiceAccount();
    const b = await newServiceAccount(a.domain, 'second source');
    const created = await api(a, 'PUT', '/Tails', { tailId: 'ev-1', tailNumber: 'NEV1' });
    const tailId = created.body.tailId as number;
    await api(b, 'PUT', '/Tails', { tailId: 'b-ev-1', tailNumber: 'NEV1' });
    await api(a, 'POST', '/Tails/Deactivate', { tailId: 'ev-1' });
    await api(a, 'POST', '/Tails/Reactivate', { tailId: 'ev-1' });
    await api(a, 'POST', '/Tails/ChangeTailNumber', { tailId: 'ev-1', newTailNumber: 'NEV1-B' });
    const bulk = await api(a, 'PUT', '/Tails/Bulk', { tails: Array.from({ length: 50 }, (_, i) => ({ tailId: `evb-${i}`, tailNumber: `NEVB${i}` })) });
    expect(bulk.status).toBe(200);

    const messages = await collect<TailEventMessage>(
      TOPICS.tailEvents,
      (ms) => new Set(ms.map((m) => m.value.eventId)).size >= 55,
      30_000,
      (m) => m.value.domain === a.domain,
    );
    const unique = [...new Map(messages.map((m) => [m.value.eventId, m])).values()];
    expect(unique).toHaveLength(55);

    const ofTail = unique.filter((m) => m.value.tailId === tailId);
    expect(ofTail.map((m) => m.value.type)).toEqual(['TailCreated', 'MappingAdded', 'TailDeactivated', 'TailReactivated', 'TailRenumbered']);
    for (const m of ofTail) expect(m.key).toBe(`${a.domain}:${tailId}`);
    expect(ofTail[0].value.mappedIds).toEqual(['ev-1']);
    expect(ofTail[1].value.mappedIds).toEqual(['ev-1', 'b-ev-1']);
    expect(ofTail[4].value).toMatchObject({
      eventId: expect.any(String),
      domain: a.domain,
      tailId,
      occurredAt: expect.any(String),
      position: expect.any(String),
      data: expect.objectContaining({ fromTailNumber: 'NEV1', toTailNumber: 'NEV1-B' }),
    });
    expect(unique.filter((m) => m.value.type === 'TailCreated')).toHaveLength(51);
  });
});
