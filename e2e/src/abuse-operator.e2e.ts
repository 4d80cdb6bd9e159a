import { api } from './support/accounts';
import { EVT, newSecret, subscribed } from './support/webhooks';

const admin = () => ({ token: process.env.ADMIN_TOKEN as string });

describe("an operator's Disable holds (black box, through the public API)", () => {
  it("the tenant cannot undo it by Enable, a save or delete and recreate; its view says why; an operator's Enable lifts it", async () => {
    const { account, receiver } = await subscribed();
    const disabled = await api(admin(), 'POST', `/admin/Domains/${account.domain}/Subscription/Disable`);
    expect(disabled.status).toBe(200);

    for (const [method, path, body] of [
      ['POST', '/WebhookSubscriptions/Enable', undefined],
      ['POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: receiver.url, sharedSecret: newSecret() }],
      ['DELETE', '/WebhookSubscriptions/', undefined],
    ] as const) {
      const refused = await api(account, method, path, body);
      expect({ call: `${method} ${path}`, status: refused.status, type: refused.headers.get('content-type') }).toEqual({ call: `${method} ${path}`, status: 409, type: expect.stringMatching(/^application\/problem\+json/) });
      expect(refused.body.detail).toMatch(/disabled by the operator/);
    }
    const view = await api(account, 'GET', '/WebhookSubscriptions/');
    expect(view.body).toMatchObject({ status: 'disabled', disabledReason: 'operator' });

    const enabled = await api(admin(), 'POST', `/admin/Domains/${account.domain}/Subscription/Enable`);
    expect(enabled.status).toBe(200);
    expect((await api(account, 'POST', '/WebhookSubscriptions/Enable')).status).toBe(200);
    expect((await api(account, 'POST', '/WebhookSubscriptions/', { eventNames: [EVT], url: receiver.url, sharedSecret: newSecret() })).body).toMatchObject({ status: 'active', disabledReason: null });
  });
});
