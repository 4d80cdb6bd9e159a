/** A tenant backfilling as hard as it can: one job at a time, and the other tenants' deliveries keep flowing. */
import { api } from './support/accounts';
import { eventually } from './support/eventually';
import { deliveryOf, publish, subscribed } from './support/webhooks';

const BACKFILL = '/WebhookSubscriptions/Deliveries/Backfill';

describe('80 parallel backfill calls from one tenant', () => {
  it("give one 202 and 79 409s naming the job, while another tenant's deliveries arrive as usual", async () => {
    const noisy = await subscribed();
    const quiet = await subscribed();
    const since = new Date(Date.now() - 7 * 86_400_000 + 60_000).toISOString();
    try {
      // Something for the job to find on its partition (delivered live already, so found but not stored again).
      await publish(noisy.account.domain, 20);
      const answers = await Promise.all(Array.from({ length: 80 }, () => api(noisy.account, 'POST', BACKFILL, { since })));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 202)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(79);
      const { backfillId } = answers.find((a) => a.status === 202)!.body;
      for (const refused of answers.filter((a) => a.status === 409)) {
        expect(refused.headers.get('content-type')).toContain('application/problem+json');
        expect(refused.body.detail).toContain(backfillId);
      }

      // Meanwhile the quiet tenant's live events are delivered as usual.
      const started = Date.now();
      const live = await publish(quiet.account.domain, 5);
      for (const e of live) await deliveryOf(quiet.account, e.eventId, 'delivered', 10_000);
      expect(Date.now() - started).toBeLessThan(10_000);

      const job = await eventually(async () => {
        const res = await api(noisy.account, 'GET', `${BACKFILL}/${backfillId}`);
        return res.body?.state === 'done' ? res.body : undefined;
      }, 60_000);
      expect(job.eventsFound).toBeGreaterThanOrEqual(20);
    } finally {
      await Promise.all([noisy.receiver.close(), quiet.receiver.close()]);
    }
  });
});
