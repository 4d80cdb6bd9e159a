import { api } from './support/accounts';
import { scripts } from './support/receiver';
import { subscribed } from './support/webhooks';

const test = (account: { token: string }) => api(account, 'POST', '/WebhookSubscriptions/Test', { payloadToEcho: { ping: 1 } });

describe("a domain's Test calls (2 in flight, 10 a minute)", () => {
  it('answers 429 for a third call in flight, while another domain tests its receiver as usual', async () => {
    const noisy = await subscribed(scripts.hang());
    const quiet = await subscribed(scripts.status(200));
    try {
      const hanging = [test(noisy.account), test(noisy.account)];
      await noisy.receiver.waitFor(2);
      const third = await test(noisy.account);
      expect(third.status).toBe(429);
      expect(third.body.type).toMatch(/#rate-limited$/);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const started = Date.now();
      const other = await test(quiet.account);
      expect(other.status).toBe(200);
      expect(other.body.success).toBe(true);
      expect(Date.now() - started).toBeLessThan(3_000);
      // The two held calls end (the receiver never answers) with success false, not an error.
      for (const res of await Promise.all(hanging)) expect(res).toMatchObject({ status: 200, body: { success: false } });
      expect((await test(noisy.account)).status).toBe(200);
    } finally {
      await Promise.all([noisy.receiver.close(), quiet.receiver.close()]);
    }
  });

  it('answers 429 with Retry-After for the eleventh call within a minute', async () => {
    const s = await subscribed(scripts.status(200));
    try {
      for (let i = 0; i < 10; i++) expect((await test(s.account)).status).toBe(200);
      const limited = await test(s.account);
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(s.receiver.requests).toHaveLength(10);
    } finally {
      await s.receiver.close();
    }
  });
});
