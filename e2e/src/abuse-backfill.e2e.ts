/** A tenant backfilling as hard as it can: one job at a time, and the other tenants' deliveries keep flowing. */
import { api } from './support/accounts';
import { eventually } from './support/eventually';
import { deliveryOf, publish, subscribed } from './support/webhooks';

const BACKFILL = '/WebhookSubscriptions/Deliveries/Backfill';

describe('80 parallel backfill calls from one tenant', () => {
  it("start one job at a time (a 202, then 409s naming the running job), while another tenant's deliveries arrive as usual", async () => {
    const noisy = await subscribed();
    const quiet = await subscribed();
    const since = new Date(Date.now() - 7 * 86_400_000 + 60_000).toISOString();
    try {
      // Something for the job to find on its partition (delivered live already, so found but not stored again).
      await publish(noisy.account.domain, 20);
      const answers = await Promise.all(Array.from({ length: 80 }, () => api(noisy.account, 'POST', BACKFILL, { since })));
      // One job at a time, not one job in all: on a loaded machine the first job can end before the
      // last calls arrive, and then the next call rightly starts another.
      const accepted = answers.filter((a) => a.status === 202).map((a) => a.body.backfillId as string);
      const refused = answers.filter((a) => a.status === 409);
      expect(accepted.length + refused.length).toBe(80);
      expect(accepted.length).toBeGreaterThanOrEqual(1);
      expect(refused.length).toBeGreaterThanOrEqual(accepted.length);
      for (const answer of refused) {
        expect(answer.headers.get('content-type')).toContain('application/problem+json');
        expect(accepted.filter((id) => answer.body.detail.includes(id))).toHaveLength(1);
      }

      // Meanwhile the quiet tenant's live events are delivered as usual.
      const started = Date.now();
      const live = await publish(quiet.account.domain, 5);
      for (const e of live) await deliveryOf(quiet.account, e.eventId, 'delivered', 10_000);
      expect(Date.now() - started).toBeLessThan(10_000);

      const jobs: Array<{ eventsFound: number; startedAt: string; finishedAt: string }> = [];
      for (const backfillId of accepted) {
        jobs.push(await eventually(async () => {
          const res = await api(noisy.account, 'GET', `${BACKFILL}/${backfillId}`);
          return res.body?.state === 'done' ? res.body : undefined;
        }, 60_000));
      }
      for (const job of jobs) expect(job.eventsFound).toBeGreaterThanOrEqual(20);
      // Each job started only after the one before it had finished.
      const byStart = [...jobs].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
      for (let i = 1; i < byStart.length; i++) expect(Date.parse(byStart[i].startedAt)).toBeGreaterThanOrEqual(Date.parse(byStart[i - 1].finishedAt));
    } finally {
      await Promise.all([noisy.receiver.close(), quiet.receiver.close()]);
    }
  });
});
